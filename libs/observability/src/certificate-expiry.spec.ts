import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { earliestNotAfter, watchCertificateExpiry } from './certificate-expiry';
import { metricsRegistry } from './metrics';

/** a self-signed certificate valid for `days`, as PEM (openssl, as tools/dev/test-ca.mjs makes the bus's) */
function certificate(dir: string, name: string, days: number): string {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
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
  return fs.readFileSync(cert, 'utf8');
}

describe('coffer_tls_certificate_expiry_timestamp_seconds', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-cert-expiry-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is the earliest not-after of a file's certificates, read again when scraped", async () => {
    const bundle = path.join(dir, 'ca.pem');
    fs.writeFileSync(bundle, certificate(dir, 'later', 30) + certificate(dir, 'sooner', 10));
    watchCertificateExpiry('nats_ca', bundle);
    const inTenDays = Date.now() / 1000 + 10 * 86_400;
    const value = async () =>
      Number(/^coffer_tls_certificate_expiry_timestamp_seconds\{certificate="nats_ca"\} (\d+)$/m.exec(await metricsRegistry.metrics())?.[1]);
    expect(Math.abs((await value()) - inTenDays)).toBeLessThan(120);

    // a rotated file is read at the next scrape
    fs.writeFileSync(bundle, certificate(dir, 'rotated', 90));
    expect(Math.abs((await value()) - (Date.now() / 1000 + 90 * 86_400))).toBeLessThan(120);
  });

  it('has no value for a missing file or one without a certificate', () => {
    expect(earliestNotAfter(path.join(dir, 'absent.pem'))).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'empty.pem'), 'not a certificate\n');
    expect(earliestNotAfter(path.join(dir, 'empty.pem'))).toBeUndefined();
  });
});
