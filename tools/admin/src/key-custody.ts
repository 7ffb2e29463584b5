/**
 * The key-encryption key's custody commands (docs/keys.md):
 *   keys init                 creates the HSM key PKCS11_KEY_LABEL names when none has that label (KEK_PROVIDER=pkcs11)
 *   keys rewrap [--to <p>]    re-wraps every tenant key under the configured KEK, online, in batches
 */
import type { ParseArgsConfig } from 'node:util';
import { KeyringPool } from '@coffer/db';
import { KeyEncryptionKeyProvider, Pkcs11KeyEncryptionKeyProvider, kekProviderFromEnv, kekProviderKind } from '@coffer/crypto';
import { TenantKeyRepository, TenantKeyring } from '@coffer/crypto/keyring';

type Values = Record<string, string | boolean | undefined>;
type Options = NonNullable<ParseArgsConfig['options']>;

const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const satisfies Options;

export const KEY_CUSTODY_COMMANDS: Record<string, { usage: string; summary: string; options: Options; positionals: number }> = {
  'keys init': {
    usage: 'admin keys init [--json]',
    summary: 'creates the key-encryption key in the HSM (KEK_PROVIDER=pkcs11) when no key has PKCS11_KEY_LABEL; idempotent',
    options: COMMON,
    positionals: 0,
  },
  'keys rewrap': {
    usage: 'admin keys rewrap [--to env|pkcs11] [--batch <1-1000>] [--json]',
    summary: 'online: re-wraps every tenant key under the configured key-encryption key (e.g. env → HSM); data rows do not change',
    options: { ...COMMON, to: { type: 'string' }, batch: { type: 'string' } },
    positionals: 0,
  },
};

const say = (line: string) => process.stderr.write(`${line}\n`);

/** The KEK provider KEK_PROVIDER names, for a command; with pkcs11 it must connect now (a CLI does not wait). */
export async function kekProviderForCli(createKey = false): Promise<KeyEncryptionKeyProvider> {
  const provider = await kekProviderFromEnv({ createKey, log: (_level, message) => say(message) });
  if (!(await provider.ready())) {
    const why = provider instanceof Pkcs11KeyEncryptionKeyProvider ? provider.problem() : undefined;
    await provider.close();
    throw new Error(`the key-encryption key is not available${why ? `: ${why}` : ''}`);
  }
  return provider;
}

/** Runs one of KEY_CUSTODY_COMMANDS; returns the exit code. */
export async function runKeyCustodyCommand(command: string, values: Values): Promise<number> {
  const json = values['json'] === true;
  const out = (result: object, text: string) => process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${text}\n`);
  if (command === 'keys init') {
    if (kekProviderKind() === 'env') {
      out({ provider: 'env', created: false }, 'KEK_PROVIDER=env: the key-encryption keys are KEY_ENCRYPTION_KEYS; nothing to create');
      return 0;
    }
    let created = false;
    const provider = await kekProviderFromEnv({
      createKey: true,
      log: (_level, message) => {
        if (message.startsWith('created')) created = true;
        say(message);
      },
    });
    try {
      if (!(await provider.ready()) || !(provider instanceof Pkcs11KeyEncryptionKeyProvider))
        throw new Error(`the HSM is not available: ${(provider as Pkcs11KeyEncryptionKeyProvider).problem?.() ?? 'unknown'}`);
      const attrs = await provider.keyAttributes();
      out(
        { provider: 'pkcs11', kek_id: provider.primaryId(), created, sensitive: attrs.sensitive, extractable: attrs.extractable },
        `${created ? 'created' : 'found'} the key-encryption key "${attrs.label}" (${provider.primaryId()}): sensitive=${attrs.sensitive}, extractable=${attrs.extractable}`,
      );
      return 0;
    } finally {
      await provider.close();
    }
  }
  if (command === 'keys rewrap') {
    const to = values['to'];
    if (to !== undefined && to !== 'env' && to !== 'pkcs11') {
      say('keys rewrap: --to must be env or pkcs11');
      return 2;
    }
    if (to !== undefined && to !== kekProviderKind()) {
      say(`keys rewrap --to ${to}: KEK_PROVIDER is "${kekProviderKind()}"; set KEK_PROVIDER=${to} (and its settings) to move the keys there`);
      return 2;
    }
    const batch = values['batch'] === undefined ? 100 : Number(values['batch']);
    if (!Number.isInteger(batch) || batch < 1 || batch > 1000) {
      say('keys rewrap: --batch must be an integer from 1 to 1000');
      return 2;
    }
    const provider = await kekProviderForCli();
    const pool = new KeyringPool();
    try {
      const keyring = new TenantKeyring(new TenantKeyRepository(pool), provider);
      let moved = 0;
      for (;;) {
        const step = await keyring.rewrapBatch(batch);
        moved += step.moved;
        if (step.remaining) say(`re-wrapped ${moved} key(s), ${step.remaining} to go`);
        if (!step.remaining) break;
        // rows that did not move are under a KEK this process cannot open: stop rather than loop
        if (step.moved === 0) throw new Error(`${step.remaining} tenant key(s) could not be re-wrapped`);
      }
      out(
        { kek_id: provider.primaryId(), rewrapped: moved, remaining: 0 },
        `re-wrapped ${moved} tenant key(s) under ${provider.primaryId()}; none left under another key`,
      );
      return 0;
    } finally {
      await pool.end();
      await provider.close();
    }
  }
  return 2;
}
