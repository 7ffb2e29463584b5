// SoftHSM2 for trying KEK_PROVIDER=pkcs11 locally and for the tests: the Debian package when it is missing (as .ci/run
// installs nats-server), and throwaway tokens, each in its own directory with its own SOFTHSM2_CONF.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MODULE_CANDIDATES = [
  '/usr/lib/softhsm/libsofthsm2.so',
  '/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so',
  '/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so',
  '/usr/local/lib/softhsm/libsofthsm2.so',
  '/opt/homebrew/lib/softhsm/libsofthsm2.so',
];

export function findSoftHsmModule() {
  if (process.env.SOFTHSM2_MODULE && fs.existsSync(process.env.SOFTHSM2_MODULE)) return process.env.SOFTHSM2_MODULE;
  return MODULE_CANDIDATES.find((p) => fs.existsSync(p)) ?? null;
}

function hasUtil() {
  return spawnSync('sh', ['-c', 'command -v softhsm2-util'], { encoding: 'utf8' }).status === 0;
}

/** The SoftHSM2 PKCS#11 module's path; installs the `softhsm2` package with apt-get when it is missing (as root). */
export function ensureSoftHsm() {
  if (!findSoftHsmModule() || !hasUtil()) {
    const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
    process.stderr.write('[coffer] installing SoftHSM2 (apt-get install -y softhsm2) ...\n');
    const sh = (args) => spawnSync(sudo.length ? 'sudo' : args[0], sudo.length ? args : args.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
    sh(['apt-get', 'update', '-qq']);
    const res = sh(['apt-get', 'install', '-y', '-qq', 'softhsm2']);
    if (res.status !== 0 || !findSoftHsmModule())
      throw new Error('SoftHSM2 is missing and could not be installed: apt-get install -y softhsm2 (or brew install softhsm)');
  }
  return findSoftHsmModule();
}

/**
 * A fresh SoftHSM2 token in a directory of its own: `env` holds what a process needs to use it (SOFTHSM2_CONF and
 * the PKCS11_* settings); `remove()` deletes the directory. The token directory (`tokenDir`) can be moved away and
 * back to make the HSM fail and return (tests).
 */
export function createSoftHsmToken({ label = 'coffer', pin = '1234', soPin = '123456', keyLabel = 'coffer-kek', dir } = {}) {
  const module = ensureSoftHsm();
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-softhsm-'));
  const tokenDir = path.join(root, 'tokens');
  fs.mkdirSync(tokenDir, { recursive: true });
  const conf = path.join(root, 'softhsm2.conf');
  fs.writeFileSync(conf, `directories.tokendir = ${tokenDir}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  const res = spawnSync('softhsm2-util', ['--init-token', '--free', '--label', label, '--so-pin', soPin, '--pin', pin], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`softhsm2-util --init-token failed: ${res.stderr}`);
  const pinFile = path.join(root, 'pin');
  fs.writeFileSync(pinFile, `${pin}\n`, { mode: 0o600 });
  return {
    root,
    tokenDir,
    conf,
    module,
    pinFile,
    env: {
      SOFTHSM2_CONF: conf,
      KEK_PROVIDER: 'pkcs11',
      PKCS11_MODULE: module,
      PKCS11_TOKEN_LABEL: label,
      PKCS11_PIN_FILE: pinFile,
      PKCS11_KEY_LABEL: keyLabel,
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

// `node tools/dev/softhsm.mjs [dir]`: a token to try KEK_PROVIDER=pkcs11 with (docs/keys.md); prints its settings
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const token = createSoftHsmToken({ dir: process.argv[2] ? path.resolve(process.argv[2]) : undefined });
  for (const [k, v] of Object.entries(token.env)) process.stdout.write(`export ${k}=${v}\n`);
}
