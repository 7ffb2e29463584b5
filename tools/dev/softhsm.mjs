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

// `node tools/dev/softhsm.mjs [dir]`: a token to try KEK_PROVIDER=pkcs11 with (docs/keys.md). It creates `dir` and
// writes the settings to `dir/env` itself (and prints them), so the documented command needs no shell redirect into
// a directory that may not exist yet. Run again on the same `dir`, it keeps that token: a second one with the same
// label would make PKCS11_TOKEN_LABEL ambiguous.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const envFile = dir && path.join(dir, 'env');
  if (envFile && fs.existsSync(envFile)) {
    process.stderr.write(`[coffer] ${dir} already holds a token; its settings: ${envFile} (remove the directory for a new one)\n`);
    process.stdout.write(fs.readFileSync(envFile, 'utf8'));
  } else {
    const token = createSoftHsmToken({ dir });
    // single-quoted: a path with spaces stays one value when the file is sourced
    const settings = Object.entries(token.env)
      .map(([k, v]) => `export ${k}='${String(v).replaceAll("'", "'\\''")}'\n`)
      .join('');
    fs.writeFileSync(path.join(token.root, 'env'), settings, { mode: 0o600 });
    process.stdout.write(settings);
    process.stderr.write(`[coffer] a SoftHSM2 token in ${token.root}; its settings are in ${path.join(token.root, 'env')}\n`);
  }
}
