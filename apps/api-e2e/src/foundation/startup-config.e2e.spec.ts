import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');

/**
 * Each service reads and checks its whole configuration before it connects to anything (apps/<service>/src/config.ts):
 * a bad value stops it with one line naming the variable and exit code 78 (EX_CONFIG), never a stack trace.
 */
function start(service: string, env: Record<string, string>): { status: number | null; stderr: string } {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/apps', service, 'main.js')], {
    env: {
      PATH: process.env['PATH'] ?? '',
      DATABASE_URL: process.env['COFFER_E2E_DATABASE_URL'] ?? '',
      KEY_ENCRYPTION_KEYS: process.env['COFFER_E2E_KEK'] ?? '',
      // nothing answers here: a process that got past its configuration would hang, not exit
      NATS_URL: 'nats://127.0.0.1:9',
      ...env,
    },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: res.status, stderr: res.stderr };
}

describe('configuration is checked at start-up', () => {
  it.each([
    ['reactor-service', 'REACTOR_JOB_CONCURRENCY', 'four', 'REACTOR_JOB_CONCURRENCY must be an integer between 1 and 1000, got "four"'],
    ['reactor-service', 'ALLOW_PRIVATE_EGRESS', 'maybe', 'ALLOW_PRIVATE_EGRESS must be true or false, got "maybe"'],
    ['webhook-dispatcher', 'ALLOW_PRIVATE_CALLBACKS', 'on', 'ALLOW_PRIVATE_CALLBACKS must be true or false, got "on"'],
    ['session-service', 'SESSION_SWEEP_INTERVAL_MS', '10s', 'SESSION_SWEEP_INTERVAL_MS must be an integer between 100 and 86400000, got "10s"'],
    ['gateway', 'AUTH_CACHE_TTL_MS', '5s', 'AUTH_CACHE_TTL_MS must be an integer between 1 and 3600000, got "5s"'],
  ])('%s stops on %s=%s with exit 78 and one line naming it', (service, name, value, message) => {
    const { status, stderr } = start(service, { [name]: value });
    expect({ status, stderr }).toEqual({ status: 78, stderr: `${service}: configuration error: ${message}\n` });
  });
});
