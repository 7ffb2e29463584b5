import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
/** The pinned runtime (docs/runtime.md): `npm test` re-executes itself on it, and everything it starts inherits it. */
const PINNED = `v${fs.readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim()}`;

describe('the runtime', () => {
  it('runs the test harness on the pinned Node', () => {
    expect(process.version).toBe(PINNED);
  });

  it.each(['gateway', 'token-service', 'session-service', 'reactor-service', 'webhook-dispatcher', 'proxy-service'])(
    'runs %s on the pinned Node',
    async (service) => {
      const ports = JSON.parse(process.env['COFFER_E2E_METRICS_PORTS'] ?? '{}') as Record<string, number>;
      const res = await fetch(`http://127.0.0.1:${ports[service]}/metrics`);
      expect(res.status).toBe(200);
      // prom-client's default metrics name the Node version of the process that serves them
      const version = /^nodejs_version_info\{[^}]*version="(v[^"]+)"/m.exec(await res.text())?.[1];
      expect(version).toBe(PINNED);
    },
  );
});
