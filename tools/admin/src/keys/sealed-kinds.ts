import { Prisma } from '@coffer/db';

/** One keyset column of a sealed table (the tenant id is always the first, fixed, part of the key). */
export interface KeysetColumn {
  name: string;
  /** the PostgreSQL type the column is compared as */
  type: 'text' | 'uuid';
}

/**
 * A kind of value sealed under a tenant's data key: where its ciphertext and key id live, how rows are ordered for
 * keyset pagination, and the associated data the writing service binds the ciphertext to (which must be rebuilt
 * exactly, or the value would no longer open).
 */
export interface SealedKind {
  kind: string;
  table: string;
  keyset: KeysetColumn[];
  ciphertext: string;
  /** the data key id column; null when the key id is the ciphertext's first 16 bytes (webhook secrets) */
  keyIdColumn: string | null;
  aad(row: Record<string, string>): string;
}

/**
 * A kind keyed by its row's `id` alone, with its ciphertext in `<column>_ciphertext`, its key id in `<column>_key_id`
 * and the associated data `<aadPrefix>:<id>`.
 */
function sealedById(kind: string, table: string, column: string, aadPrefix: string, idType: KeysetColumn['type'] = 'uuid'): SealedKind {
  return {
    kind,
    table,
    keyset: [{ name: 'id', type: idType }],
    ciphertext: `${column}_ciphertext`,
    keyIdColumn: `${column}_key_id`,
    aad: (r) => `${aadPrefix}:${r['id']}`,
  };
}

/**
 * Every value the services seal with TenantKeyring.encryptJson. Reactor formulas hold no secret (their
 * configuration is the list of elements, not values) and v2 token cursors are sealed under a key derived from the
 * never-rotating index key, so neither has anything to re-encrypt.
 */
export const SEALED_KINDS: readonly SealedKind[] = [
  sealedById('tokens', 'tokens', 'data', 'token', 'text'),
  // a converted intent keeps its row without data (null ciphertext): nothing to re-encrypt there
  sealedById('token_intents', 'token_intents', 'data', 'token-intent'),
  sealedById('reactor_configurations', 'reactors', 'configuration', 'reactor'),
  sealedById('proxy_secrets', 'proxies', 'secrets', 'proxy'),
  sealedById('job_arguments', 'reactor_jobs', 'args', 'reactor-job'),
  sealedById('job_outcomes', 'reactor_jobs', 'outcome', 'reactor-job-outcome'),
  sealedById('webhook_bodies', 'webhook_deliveries', 'body', 'webhook-body'),
  {
    kind: 'webhook_secrets',
    table: 'webhook_secrets',
    keyset: [{ name: 'id', type: 'uuid' }],
    ciphertext: 'ciphertext',
    keyIdColumn: null,
    aad: (r) => `webhook-secret:${r['id']}`,
  },
  {
    kind: 'idempotency_replies',
    table: 'idempotency_records',
    keyset: [
      { name: 'owner_id', type: 'uuid' },
      { name: 'key', type: 'text' },
    ],
    ciphertext: 'reply',
    keyIdColumn: 'reply_key_id',
    aad: (r) => `idempotency:${r['owner_id']}:${r['key']}`,
  },
];

export const KIND_NAMES = SEALED_KINDS.map((k) => k.kind);

export function sealedKind(name: string): SealedKind {
  const kind = SEALED_KINDS.find((k) => k.kind === name);
  if (!kind) throw new Error(`unknown kind of sealed value "${name}"`);
  return kind;
}

/** SQL identifiers of a kind: constants of this file, never user input. */
export const ident = (name: string) => Prisma.raw(`"${name.replace(/"/g, '')}"`);

/** The data key id of a row, as uuid. Webhook secrets store it as the ciphertext's first 16 bytes. */
export function keyIdSql(kind: SealedKind, alias = ''): Prisma.Sql {
  const col = (name: string) => Prisma.raw(`${alias ? `${alias}.` : ''}"${name}"`);
  return kind.keyIdColumn ? col(kind.keyIdColumn) : Prisma.sql`encode(substring(${col(kind.ciphertext)} from 1 for 16), 'hex')::uuid`;
}

/** A webhook secret's stored form: [key id, 16 bytes][ciphertext]. */
export function packWebhookSecret(keyId: string, ciphertext: Buffer): Buffer {
  return Buffer.concat([Buffer.from(keyId.replace(/-/g, ''), 'hex'), ciphertext]);
}
