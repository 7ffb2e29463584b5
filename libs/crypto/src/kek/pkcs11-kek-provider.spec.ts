import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KeyEncryptionKeys } from '../key-encryption-keys';
import { EnvKeyEncryptionKeyProvider } from './env-kek-provider';
import { KeyCustodyUnavailableError } from './kek-provider';
import { pkcs11ConfigFromEnv } from './kek-config';
import { Pkcs11KeyEncryptionKeyProvider, type Pkcs11ProviderOptions } from './pkcs11-kek-provider';

// Against a real SoftHSM2 token that jest.softhsm-setup.mjs creates (tools/dev/softhsm.mjs installs the package).
const HSM = JSON.parse(process.env['COFFER_SPEC_SOFTHSM'] ?? '{}') as { tokenDir: string; module: string };

describe('Pkcs11KeyEncryptionKeyProvider (SoftHSM2)', () => {
  const tokenDir = HSM.tokenDir;
  const MODULE = HSM.module;
  let provider: Pkcs11KeyEncryptionKeyProvider | undefined;
  const logs: string[] = [];

  afterEach(async () => {
    await provider?.close();
    provider = undefined;
    logs.length = 0;
  });

  function config(overrides: Record<string, string> = {}) {
    return pkcs11ConfigFromEnv({
      PKCS11_MODULE: MODULE,
      PKCS11_TOKEN_LABEL: 'spec',
      PKCS11_PIN: '1234',
      PKCS11_KEY_LABEL: 'kek-spec',
      PKCS11_TIMEOUT_MS: '2000',
      PKCS11_RETRY_MS: '100',
      ...overrides,
    });
  }

  async function started(options: Pkcs11ProviderOptions = {}, overrides: Record<string, string> = {}) {
    provider = new Pkcs11KeyEncryptionKeyProvider(config(overrides), { log: (level, message) => logs.push(`${level}: ${message}`), ...options });
    await provider.start();
    return provider;
  }

  const until = async (check: () => Promise<boolean>, ms = 5000) => {
    for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await check()) return;
    throw new Error('condition not met in time');
  };

  it('without the key, stays unready and names "keys init"; with createKey, makes it sensitive and non-extractable', async () => {
    const p = await started();
    expect(await p.ready()).toBe(false);
    expect(p.problem()).toMatch(/no key labelled "kek-spec".*keys init/);
    await p.close();
    const q = await started({ createKey: true });
    expect(await q.ready()).toBe(true);
    expect(await q.keyAttributes()).toEqual({ sensitive: true, extractable: false, label: 'kek-spec' });
    expect(logs.join('\n')).toMatch(/created the key-encryption key "kek-spec"/);
  });

  it('wraps inside the HSM, bound to the context, and finds the same key by label after a restart', async () => {
    const dataKey = randomBytes(32);
    const p = await started({ createKey: true });
    const { kekId, wrapped } = await p.wrap(dataKey, 'coffer:data:t:k');
    expect(kekId).toBe('pkcs11:kek-spec');
    expect(wrapped.includes(dataKey)).toBe(false);
    expect((await p.unwrap(kekId, wrapped, 'coffer:data:t:k')).equals(dataKey)).toBe(true);
    await expect(p.unwrap(kekId, wrapped, 'coffer:data:other:k')).rejects.toThrow(/HSM unwrap failed/);
    await p.close();
    const again = await started();
    expect((await again.unwrap(kekId, wrapped, 'coffer:data:t:k')).equals(dataKey)).toBe(true);
    expect(logs.join('\n')).not.toMatch(/created/);
  });

  it('still opens keys wrapped by KEY_ENCRYPTION_KEYS during a move to the HSM, and wraps only with the HSM', async () => {
    const env = KeyEncryptionKeys.parse(KeyEncryptionKeys.generateEntry('old'));
    const { wrapped } = env.wrap(Buffer.alloc(32, 9), 'ctx');
    const p = await started({ createKey: true, legacy: new EnvKeyEncryptionKeyProvider(env) });
    expect((await p.unwrap('old', wrapped, 'ctx')).equals(Buffer.alloc(32, 9))).toBe(true);
    expect((await p.wrap(Buffer.alloc(32, 9), 'ctx')).kekId).toBe('pkcs11:kek-spec');
    await expect(p.unwrap('unknown', wrapped, 'ctx')).rejects.toThrow(/neither the HSM key/);
  });

  it('HSM unreachable at start: one log line, unready, then ready when it comes back', async () => {
    let p: Pkcs11KeyEncryptionKeyProvider | undefined;
    fs.renameSync(tokenDir, `${tokenDir}.away`);
    try {
      p = await started({}, { PKCS11_TOKEN_LABEL: 'spec' });
      expect(await p.ready()).toBe(false);
      await new Promise((r) => setTimeout(r, 500)); // several retries
      expect(logs.filter((l) => l.startsWith('error:'))).toHaveLength(1);
      await expect(p.wrap(randomBytes(32), 'x')).rejects.toBeInstanceOf(KeyCustodyUnavailableError);
    } finally {
      fs.renameSync(`${tokenDir}.away`, tokenDir);
    }
    await until(() => p?.ready() ?? Promise.resolve(false));
    expect(logs.at(-1)).toMatch(/HSM session established again/);
  });

  it('HSM lost during operation: the call fails as unavailable, then the session comes back by itself', async () => {
    const p = await started({ createKey: true });
    const { kekId, wrapped } = await p.wrap(Buffer.alloc(32, 1), 'ctx');
    fs.renameSync(tokenDir, `${tokenDir}.away`);
    try {
      await expect(p.unwrap(kekId, wrapped, 'ctx')).rejects.toBeInstanceOf(KeyCustodyUnavailableError);
      expect(await p.ready()).toBe(false);
      await expect(p.unwrap(kekId, wrapped, 'ctx')).rejects.toBeInstanceOf(KeyCustodyUnavailableError);
    } finally {
      fs.renameSync(`${tokenDir}.away`, tokenDir);
    }
    await until(() => p.ready());
    expect((await p.unwrap(kekId, wrapped, 'ctx')).equals(Buffer.alloc(32, 1))).toBe(true);
    expect(logs.filter((l) => l.includes('HSM lost'))).toHaveLength(1);
  });

  it('serializes concurrent calls on its one session', async () => {
    const p = await started({ createKey: true });
    const keys = Array.from({ length: 20 }, () => randomBytes(32));
    const wrapped = await Promise.all(keys.map((k, i) => p.wrap(k, `c${i}`)));
    const opened = await Promise.all(wrapped.map((w, i) => p.unwrap(w.kekId, w.wrapped, `c${i}`)));
    opened.forEach((k, i) => expect(k.equals(keys[i])).toBe(true));
  });
});

describe('pkcs11ConfigFromEnv', () => {
  const base = { PKCS11_MODULE: '/x.so', PKCS11_TOKEN_LABEL: 't', PKCS11_PIN: '1', PKCS11_KEY_LABEL: 'k' };

  it('names the missing or conflicting variable', () => {
    expect(() => pkcs11ConfigFromEnv({ ...base, PKCS11_MODULE: undefined })).toThrow(/PKCS11_MODULE/);
    expect(() => pkcs11ConfigFromEnv({ ...base, PKCS11_TOKEN_LABEL: undefined })).toThrow(/PKCS11_TOKEN_LABEL or PKCS11_SLOT/);
    expect(() => pkcs11ConfigFromEnv({ ...base, PKCS11_PIN: undefined })).toThrow(/PKCS11_PIN or PKCS11_PIN_FILE/);
    expect(() => pkcs11ConfigFromEnv({ ...base, PKCS11_PIN_FILE: '/p' })).toThrow(/not both/);
    expect(() => pkcs11ConfigFromEnv({ ...base, PKCS11_KEY_LABEL: '' })).toThrow(/PKCS11_KEY_LABEL/);
    expect(() => pkcs11ConfigFromEnv({ ...base, PKCS11_PIN_FILE: '/nonexistent', PKCS11_PIN: undefined })).toThrow(/PKCS11_PIN_FILE cannot be read: ENOENT/);
  });

  it('reads the PIN from a file without its trailing newline, and takes a slot instead of a label', () => {
    const file = path.join(os.tmpdir(), `pin-${process.pid}`);
    fs.writeFileSync(file, '5678\n');
    try {
      const c = pkcs11ConfigFromEnv({ ...base, PKCS11_PIN: undefined, PKCS11_PIN_FILE: file, PKCS11_TOKEN_LABEL: undefined, PKCS11_SLOT: '1' });
      expect(c).toMatchObject({ pin: '5678', slot: 1, tokenLabel: undefined, callTimeoutMs: 5000, retryMs: 2000 });
    } finally {
      fs.rmSync(file);
    }
  });
});
