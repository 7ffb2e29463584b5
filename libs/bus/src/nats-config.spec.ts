import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { metricsRegistry } from '@coffer/observability';
import { natsConnectionOptions } from './nats-config';

describe('natsConnectionOptions', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-nats-config-'));
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("verifies TLS against NATS_TLS_CA_FILE and reports the certificates' expiry (coffer_tls_certificate_expiry_timestamp_seconds)", async () => {
    const pair = (name: string, days: number) => {
      const [key, cert] = [path.join(dir, `${name}.key`), path.join(dir, `${name}.pem`)];
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          String(days),
          '-subj',
          `/CN=${name}`,
        ],
        {
          stdio: 'ignore',
        },
      );
      return { key, cert };
    };
    const ca = pair('ca', 365);
    const client = pair('client', 30);
    Object.assign(process.env, { NATS_URL: 'tls://127.0.0.1:4222', NATS_TLS_CA_FILE: ca.cert, NATS_TLS_CERT_FILE: client.cert, NATS_TLS_KEY_FILE: client.key });
    expect(natsConnectionOptions('gateway-rpc').tls).toEqual({ caFile: ca.cert, certFile: client.cert, keyFile: client.key });
    const text = await metricsRegistry.metrics();
    const daysLeft = (certificate: string) =>
      (Number(new RegExp(`^coffer_tls_certificate_expiry_timestamp_seconds\\{certificate="${certificate}"\\} (\\d+)$`, 'm').exec(text)?.[1]) -
        Date.now() / 1000) /
      86_400;
    expect(Math.round(daysLeft('nats_ca'))).toBe(365);
    expect(Math.round(daysLeft('nats_client'))).toBe(30);
  });
});
