// A throwaway certificate authority for the proxy's destinations (the end-to-end run, the proxy benchmark): the CA
// certificate is what proxy-service trusts through NODE_EXTRA_CA_CERTS (as an operator would add a private CA), and
// the server certificate (localhost) is what the local HTTPS destinations present. Made with openssl, like the local bus.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function openssl(args, input) {
  const res = spawnSync(process.env.OPENSSL_BIN ?? 'openssl', args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  if (res.error || res.status !== 0) throw new Error(`openssl ${args[0]} failed: ${res.error?.message ?? res.stderr}`);
  return res.stdout;
}

/** Writes ca.pem, server.pem and server.key (for DNS:localhost) under `dir`; returns their paths. */
export function createTestCa(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caKey = path.join(dir, 'ca.key');
  const caCert = path.join(dir, 'ca.pem');
  const key = path.join(dir, 'server.key');
  const cert = path.join(dir, 'server.pem');
  const ext = path.join(dir, 'server.ext');
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', caKey]);
  openssl([
    'req',
    '-x509',
    '-new',
    '-key',
    caKey,
    '-sha256',
    '-days',
    '2',
    '-subj',
    '/CN=Coffer e2e proxy destinations CA',
    '-out',
    caCert,
    '-addext',
    'basicConstraints=critical,CA:TRUE,pathlen:0',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', key]);
  const csr = openssl(['req', '-new', '-key', key, '-subj', '/CN=localhost']);
  fs.writeFileSync(ext, 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost\n');
  openssl(['x509', '-req', '-CA', caCert, '-CAkey', caKey, '-CAcreateserial', '-days', '2', '-sha256', '-extfile', ext, '-out', cert], csr);
  fs.rmSync(ext, { force: true });
  return { caCert, cert, key };
}
