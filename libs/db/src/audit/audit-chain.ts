import { hash as hashOnce } from 'node:crypto';

/** The hash before a chain's first row (and the anchor of a chain that was never pruned). */
export const GENESIS_HASH = '0'.repeat(64);

/** The chain of records that belong to no tenant: refusals of unknown keys, operator acts on the whole system. */
export const GLOBAL_AUDIT_TENANT = '00000000-0000-0000-0000-000000000000';

/** The fields of an audit row that its hash covers: all of them but the hash itself. */
export interface ChainedFields {
  seq: number;
  id: string;
  tenantId: string;
  createdAt: Date;
  actorType: string | null;
  actorId: string | null;
  actorName: string | null;
  actorApplicationId: string | null;
  operation: string;
  entityType: string;
  entityId: string;
  traceId: string | null;
  source: string | null;
  count: number;
  changes: unknown;
}

/** JSON with object keys sorted at every depth: jsonb keeps no key order, so the hash must not depend on one. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** One row as the chain sees it: a JSON array in a fixed field order (so a new column changes no old hash). */
export function canonicalRecord(r: ChainedFields): string {
  return canonicalJson([
    r.seq,
    r.id,
    r.tenantId,
    r.createdAt.toISOString(),
    r.actorType,
    r.actorId,
    r.actorName,
    r.actorApplicationId,
    r.operation,
    r.entityType,
    r.entityId,
    r.traceId,
    r.source,
    r.count,
    r.changes ?? null,
  ]);
}

/** sha-256 hex of the previous row's hash, a newline, and this row's canonical form. */
export function chainHash(previous: string, r: ChainedFields): string {
  return hashOnce('sha256', `${previous}\n${canonicalRecord(r)}`, 'hex');
}

/** What verification found wrong first in a chain. */
export interface ChainBreak {
  tenantId: string;
  kind: 'altered' | 'missing' | 'head_mismatch';
  /** the seq of the altered row, or of the first missing one */
  seq: number;
  /** the altered row, or the row found after the gap */
  id?: string;
  /** the last intact row before the break */
  previousId?: string;
  detail: string;
}

/**
 * Checks rows (in seq order, continuing after `from`) against the chain: each must carry the next seq and the hash of
 * its predecessor's hash and its own fields. Returns the first break, or the seq and hash reached.
 */
export function verifyRows(
  tenantId: string,
  from: { seq: number; hash: string; id?: string },
  rows: Array<ChainedFields & { hash: string | null }>,
): { ok: true; seq: number; hash: string; id?: string } | { ok: false; break: ChainBreak } {
  let { seq, hash, id } = from;
  for (const r of rows) {
    if (r.seq !== seq + 1) {
      const gap = r.seq - seq - 1;
      return {
        ok: false,
        break: {
          tenantId,
          kind: 'missing',
          seq: seq + 1,
          id: r.id,
          previousId: id,
          detail: `record #${seq + 1}${gap > 1 ? ` to #${r.seq - 1}` : ''} missing (deleted) before record ${r.id} (#${r.seq})`,
        },
      };
    }
    const expected = chainHash(hash, r);
    if (expected !== r.hash)
      return {
        ok: false,
        break: {
          tenantId,
          kind: 'altered',
          seq: r.seq,
          id: r.id,
          previousId: id,
          detail: `record ${r.id} (#${r.seq}) was altered: its hash does not match its contents`,
        },
      };
    seq = r.seq;
    hash = expected;
    id = r.id;
  }
  return { ok: true, seq, hash, id };
}
