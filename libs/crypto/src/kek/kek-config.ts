import fs from 'node:fs';
import { KeyEncryptionKeys } from '../key-encryption-keys';
import { EnvKeyEncryptionKeyProvider } from './env-kek-provider';
import type { KeyEncryptionKeyProvider } from './kek-provider';
import { Pkcs11KeyEncryptionKeyProvider, type Pkcs11Config, type Pkcs11ProviderOptions } from './pkcs11-kek-provider';

export type KekProviderKind = 'env' | 'pkcs11';

type Env = Record<string, string | undefined>;

/** A bad KEK setting; its message names the variable (services print it and exit 78). */
export class KekConfigError extends Error {
  override readonly name = 'KekConfigError';
}

/** KEK_PROVIDER: env (default) or pkcs11. */
export function kekProviderKind(env: Env = process.env): KekProviderKind {
  const v = env['KEK_PROVIDER'] || 'env';
  if (v !== 'env' && v !== 'pkcs11') throw new KekConfigError(`KEK_PROVIDER must be "env" or "pkcs11", not "${v}"`);
  return v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new KekConfigError(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** The PKCS11_* settings; the PIN from PKCS11_PIN or the file PKCS11_PIN_FILE names (a mounted secret). */
export function pkcs11ConfigFromEnv(env: Env = process.env): Pkcs11Config {
  const module = env['PKCS11_MODULE'];
  if (!module) throw new KekConfigError("PKCS11_MODULE is not set: the path of the HSM vendor's PKCS#11 library (KEK_PROVIDER=pkcs11)");
  const tokenLabel = env['PKCS11_TOKEN_LABEL'] || undefined;
  const slot = env['PKCS11_SLOT'] ? int(env, 'PKCS11_SLOT', 0, 0, 1_000_000) : undefined;
  if (tokenLabel === undefined && slot === undefined) throw new KekConfigError('PKCS11_TOKEN_LABEL or PKCS11_SLOT must be set (KEK_PROVIDER=pkcs11)');
  let pin = env['PKCS11_PIN'];
  const pinFile = env['PKCS11_PIN_FILE'];
  if (pin && pinFile) throw new KekConfigError('set PKCS11_PIN or PKCS11_PIN_FILE, not both');
  if (pinFile) {
    try {
      pin = fs.readFileSync(pinFile, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new KekConfigError(`PKCS11_PIN_FILE cannot be read: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  if (!pin) throw new KekConfigError('PKCS11_PIN or PKCS11_PIN_FILE must be set (KEK_PROVIDER=pkcs11)');
  const keyLabel = env['PKCS11_KEY_LABEL'];
  if (!keyLabel || keyLabel.length > 128) throw new KekConfigError('PKCS11_KEY_LABEL must be set (1 to 128 characters): the label of the key-encryption key');
  return {
    module,
    tokenLabel,
    slot,
    pin,
    keyLabel,
    callTimeoutMs: int(env, 'PKCS11_TIMEOUT_MS', 5_000, 100, 120_000),
    retryMs: int(env, 'PKCS11_RETRY_MS', 2_000, 100, 600_000),
  };
}

/** KEY_ENCRYPTION_KEYS, parsed (`<id>:<base64 of 32 bytes>,…`, the first wraps); throws naming it when unset or malformed. */
export function keyEncryptionKeysFromEnv(env: Env = process.env): KeyEncryptionKeys {
  return KeyEncryptionKeys.parse(env['KEY_ENCRYPTION_KEYS']);
}

/** Checks the KEK settings at start-up, before anything connects (throws KekConfigError or the KEY_ENCRYPTION_KEYS error). */
export function validateKekConfig(env: Env = process.env): KekProviderKind {
  const kind = kekProviderKind(env);
  if (kind === 'env') keyEncryptionKeysFromEnv(env);
  else {
    pkcs11ConfigFromEnv(env);
    // optional during an env→HSM move: the old keys still read what is not re-wrapped yet
    if (env['KEY_ENCRYPTION_KEYS']) keyEncryptionKeysFromEnv(env);
  }
  return kind;
}

/**
 * The provider KEK_PROVIDER names, started: with pkcs11 the HSM is tried at once and, when unreachable, again in
 * the background (`ready()` is false meanwhile). With pkcs11, KEY_ENCRYPTION_KEYS (when set) still unwraps keys
 * wrapped before the move to the HSM.
 */
export async function kekProviderFromEnv(options: Omit<Pkcs11ProviderOptions, 'legacy'> = {}, env: Env = process.env): Promise<KeyEncryptionKeyProvider> {
  if (kekProviderKind(env) === 'env') return new EnvKeyEncryptionKeyProvider(keyEncryptionKeysFromEnv(env));
  const legacy = env['KEY_ENCRYPTION_KEYS'] ? new EnvKeyEncryptionKeyProvider(keyEncryptionKeysFromEnv(env)) : undefined;
  const provider = new Pkcs11KeyEncryptionKeyProvider(pkcs11ConfigFromEnv(env), { ...options, legacy });
  await provider.start();
  return provider;
}
