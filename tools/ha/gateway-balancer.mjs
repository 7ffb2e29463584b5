// HAProxy in front of the drill's gateways, as a load balancer in production: round robin, a replica taken out of
// rotation once its /readyz fails, and a request retried on another replica only when it could not be sent at all
// (`retry-on conn-failure`, HAProxy's default): a request that reached a gateway is never sent twice by the balancer,
// so a create without an idempotency key cannot be written twice by it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, waitForHttp } from '../dev/system.mjs';

export async function startGatewayBalancer({ dir, gateways }) {
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 2',
    '  option redispatch',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  default_backend gateways',
    'backend gateways',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 1 rise 2',
    ...gateways.map((url, i) => `  server gateway${i} ${new URL(url).host} check`),
    '',
  ].join('\n');
  const file = path.join(dir, 'gateways.cfg');
  fs.writeFileSync(file, config);
  const out = fs.openSync(path.join(dir, 'haproxy-gateways.log'), 'a');
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, 15_000);
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
