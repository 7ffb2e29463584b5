import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
/** The pinned runtime (docs/runtime.md): `npm test` re-executes itself on it, and everything it starts inherits it. */
const PINNED = `v${fs.readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim()}`;
const SERVICES = ['gateway', 'token-service', 'session-service', 'reactor-service', 'webhook-dispatcher', 'proxy-service'];

async function metricsOf(service: string): Promise<string> {
  const ports = JSON.parse(process.env['COFFER_E2E_METRICS_PORTS'] ?? '{}') as Record<string, number>;
  const res = await fetch(`http://127.0.0.1:${ports[service]}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('the runtime', () => {
  it('runs the test harness on the pinned Node', () => {
    expect(process.version).toBe(PINNED);
  });

  it.each(SERVICES)('runs %s on the pinned Node', async (service) => {
    // prom-client's default metrics name the Node version of the process that serves them
    const version = /^nodejs_version_info\{[^}]*version="(v[^"]+)"/m.exec(await metricsOf(service))?.[1];
    expect(version).toBe(PINNED);
  });

  it.each(SERVICES)('%s reports coffer_build_info{version,commit,node} and its readiness checks', async (service) => {
    const text = await metricsOf(service);
    const release = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    // the harness starts the services as `npm start` does: COFFER_COMMIT is the checkout's commit (git rev-parse
    // --short=12 HEAD when the system started: HEAD may have moved since) unless the environment sets it
    const commit = process.env['COFFER_COMMIT'] ? escapeRegExp(process.env['COFFER_COMMIT']) : '[0-9a-f]{12,40}|unknown';
    expect(text).toMatch(
      new RegExp(`^coffer_build_info\\{version="${escapeRegExp(release)}",commit="(?:${commit})",node="${escapeRegExp(PINNED)}"\\} 1$`, 'm'),
    );
    expect(text).toMatch(/^coffer_readiness_check\{check="nats"\} 1$/m);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
