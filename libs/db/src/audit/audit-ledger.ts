import { Prisma } from '../generated/prisma/client';
import type { PrismaService } from '../prisma.service';
import { GENESIS_HASH, chainHash, verifyRows, type ChainBreak, type ChainedFields } from './audit-chain';

/** One advisory lock for the sealer: one sealer at a time across every token-service replica. */
const SEAL_LOCK = 7_310_025_001;
/** A refusal window (one minute) is sealed only this long after it opened: counts still arriving are added first. */
const REFUSAL_SEAL_DELAY = "interval '3 minutes'";
/** A row still unsealed after this long means the sealer is not running (or someone slipped a row in). */
const UNSEALED_WARNING_MINUTES = 10;

interface RawRow {
  seq: bigint | number | null;
  id: string;
  tenant_id: string;
  created_at: Date;
  actor_type: string | null;
  actor_id: string | null;
  actor_name: string | null;
  actor_application_id: string | null;
  operation: string;
  entity_type: string;
  entity_id: string;
  trace_id: string | null;
  source: string | null;
  count: number;
  changes: unknown;
  hash: string | null;
}

/** A sealed record's columns, over `audit_seals s JOIN audit_events a` (SEALED). */
const COLUMNS = Prisma.raw(
  's.seq, a.id, a.tenant_id::text AS tenant_id, a.created_at, a.actor_type, a.actor_id, a.actor_name, a.actor_application_id::text AS actor_application_id, a.operation, a.entity_type, a.entity_id, a.trace_id, a.source, a.count, a.changes, s.hash',
);
/** An unsealed record's columns, over `audit_unsealed u JOIN audit_events a` (seq and hash are the sealer's to give). */
const UNSEALED_COLUMNS = Prisma.raw(
  'NULL::bigint AS seq, a.id, a.tenant_id::text AS tenant_id, a.created_at, a.actor_type, a.actor_id, a.actor_name, a.actor_application_id::text AS actor_application_id, a.operation, a.entity_type, a.entity_id, a.trace_id, a.source, a.count, a.changes, NULL::text AS hash',
);
const SEALED = Prisma.raw('audit_seals s JOIN audit_events a ON a.id = s.event_id');
/** The queued records that may be sealed now: a refusal window only once its counts are in. */
const SEALABLE = Prisma.sql`(NOT u.refusal OR u.created_at < now() - ${Prisma.raw(REFUSAL_SEAL_DELAY)})`;

function toFields(r: RawRow): ChainedFields & { hash: string | null } {
  return {
    seq: Number(r.seq),
    id: r.id,
    tenantId: r.tenant_id,
    createdAt: r.created_at,
    actorType: r.actor_type,
    actorId: r.actor_id,
    actorName: r.actor_name,
    actorApplicationId: r.actor_application_id,
    operation: r.operation,
    entityType: r.entity_type,
    entityId: r.entity_id,
    traceId: r.trace_id,
    source: r.source,
    count: Number(r.count),
    changes: r.changes,
    hash: r.hash,
  };
}

export interface ChainReport {
  tenantId: string;
  ok: boolean;
  /** the rows checked (from the anchor on) */
  records: number;
  anchorSeq: number;
  headSeq: number;
  break?: ChainBreak;
  /** rows older than a few minutes that are in no chain yet: the sealer is not running, or a row was slipped in */
  unsealed: number;
}

/**
 * The hash chains of audit_events: sealing new records into their tenant's chain, verifying chains, pruning their
 * oldest records behind an anchor, and reading them out in chain order. token-service runs the sealer and the pruner;
 * the operator CLI verifies and exports. Nothing here reads or writes anything but audit records, their seals, the
 * sealer's queue and chain heads.
 *
 * A record is never updated to seal it: its place in the chain (seq, hash) is a row of audit_seals, and the records
 * still to be sealed are queued in audit_unsealed by a trigger on audit_events (the migration 20261201000000_audit_seals).
 * Updating each record once more cost PostgreSQL more than writing it (a second heap tuple, an entry in each of the
 * table's indexes, and the vacuum behind them).
 */
export class AuditLedger {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Seals up to `limit` unsealed rows into their tenants' chains (in the order they were written), in one short
   * transaction under an advisory lock, so concurrent sealers (replicas) never interleave a chain. Writers never
   * wait for it: they insert unsealed rows and go on. Returns how many rows were sealed (0 when another sealer holds
   * the lock).
   */
  async seal(limit = 2000): Promise<number> {
    // idle most of the time: one probe of an empty queue, no transaction, when there is nothing to seal
    const [pending] = await this.prisma.$queryRaw<Array<{ one: number }>>`SELECT 1 AS one FROM audit_unsealed u WHERE ${SEALABLE} LIMIT 1`;
    if (!pending) return 0;
    return this.prisma.transactional(async () => {
      const [lock] = await this.prisma.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(${SEAL_LOCK}::bigint) AS locked`;
      if (!lock?.locked) return 0;
      // the advisory lock makes this the only sealer: the queue needs no row locks. A refusal window's count is not
      // added once it is this old (refusalWindowsUpsert), so what is read here is what is sealed.
      const queued = await this.prisma.$queryRaw<Array<RawRow & { queued_id: string }>>`
        SELECT u.event_id::text AS queued_id, ${UNSEALED_COLUMNS} FROM audit_unsealed u LEFT JOIN audit_events a ON a.id = u.event_id
        WHERE ${SEALABLE} ORDER BY u.created_at, u.event_id LIMIT ${limit}`;
      if (!queued.length) return 0;
      // a queued record deleted before it was sealed (not by Coffer: only sealed records are pruned) leaves its queue row
      const rows = queued.filter((q) => q.id !== null).map(toFields);
      const tenants = [...new Set(rows.map((r) => r.tenantId))];
      const heads = new Map<string, { seq: number; hash: string }>();
      for (const h of await this.prisma.$queryRaw<Array<{ tenant_id: string; seq: bigint; hash: string }>>`
        SELECT tenant_id::text AS tenant_id, seq, hash FROM audit_chains WHERE tenant_id = ANY(${tenants}::uuid[]) ORDER BY tenant_id FOR UPDATE`)
        heads.set(h.tenant_id, { seq: Number(h.seq), hash: h.hash });
      const sealed: Array<{ id: string; seq: number; hash: string }> = [];
      for (const r of rows) {
        const head = heads.get(r.tenantId) ?? { seq: 0, hash: GENESIS_HASH };
        r.seq = head.seq + 1;
        const hash = chainHash(head.hash, r);
        sealed.push({ id: r.id, seq: r.seq, hash });
        heads.set(r.tenantId, { seq: r.seq, hash });
      }
      const tenantOf = new Map(rows.map((r) => [r.id, r.tenantId]));
      await this.prisma.$executeRaw`
        INSERT INTO audit_seals (tenant_id, seq, event_id, hash)
        SELECT * FROM unnest(${sealed.map((s) => tenantOf.get(s.id))}::uuid[], ${sealed.map((s) => s.seq)}::bigint[],
          ${sealed.map((s) => s.id)}::uuid[], ${sealed.map((s) => s.hash)}::text[])`;
      await this.prisma.$executeRaw`DELETE FROM audit_unsealed WHERE event_id = ANY(${queued.map((q) => q.queued_id)}::uuid[])`;
      const ts = tenants.map((t) => heads.get(t) as { seq: number; hash: string });
      await this.prisma.$executeRaw`
        INSERT INTO audit_chains (tenant_id, seq, hash, anchor_seq, anchor_hash, updated_at)
        SELECT tenant_id, seq, hash, 0, ${GENESIS_HASH}, now()
        FROM unnest(${tenants}::uuid[], ${ts.map((h) => h.seq)}::bigint[], ${ts.map((h) => h.hash)}::text[]) AS t(tenant_id, seq, hash)
        ON CONFLICT (tenant_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash, updated_at = now()`;
      return queued.length;
    });
  }

  /**
   * How long until an unsealed record may be sealed, in ms by the database's clock: 0 or less when one may be now
   * (sealing left it: another sealer held the lock), a refusal window's end of counting otherwise; null when every
   * record is sealed. One scan of the sealer's queue (a handful, between seals).
   */
  async nextSealDueInMs(): Promise<number | null> {
    const [row] = await this.prisma.$queryRaw<Array<{ ms: number | null }>>`
      SELECT (extract(epoch FROM min(CASE WHEN refusal THEN created_at + ${Prisma.raw(REFUSAL_SEAL_DELAY)} ELSE now() END) - now()) * 1000)::float8 AS ms
      FROM audit_unsealed`;
    return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
  }

  /** Seals until nothing is left (tests, the CLI before a verify or an export). */
  async sealAll(): Promise<number> {
    let total = 0;
    for (let n = await this.seal(); n > 0; n = await this.seal()) total += n;
    return total;
  }

  /** The tenants that have a chain (the global one included). */
  async tenants(): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ tenant_id: string }>>`SELECT tenant_id::text AS tenant_id FROM audit_chains ORDER BY tenant_id`;
    return rows.map((r) => r.tenant_id);
  }

  /**
   * Walks a tenant's chain from its anchor (the last pruned row, or the start) to its head: the first row whose seq
   * is not the next one (a deleted row) or whose hash does not match its contents and its predecessor (an edited
   * row) is the break. A head that the rows do not reach means rows were deleted at the end.
   */
  async verify(tenantId: string, pageSize = 5000): Promise<ChainReport> {
    const [chain] = await this.prisma.$queryRaw<Array<{ seq: bigint; hash: string; anchor_seq: bigint; anchor_hash: string }>>`
      SELECT seq, hash, anchor_seq, anchor_hash FROM audit_chains WHERE tenant_id = ${tenantId}::uuid`;
    // not only the queue: a row slipped in with the trigger disabled is in no chain and in no queue either
    const [unsealed] = await this.prisma.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM audit_events a WHERE a.tenant_id = ${tenantId}::uuid
        AND a.created_at < now() - ${Prisma.raw(`interval '${UNSEALED_WARNING_MINUTES} minutes'`)}
        AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.tenant_id = a.tenant_id AND s.event_id = a.id)`;
    const report: ChainReport = {
      tenantId,
      ok: true,
      records: 0,
      anchorSeq: chain ? Number(chain.anchor_seq) : 0,
      headSeq: chain ? Number(chain.seq) : 0,
      unsealed: Number(unsealed?.n ?? 0),
    };
    let at: { seq: number; hash: string; id?: string } = { seq: report.anchorSeq, hash: chain?.anchor_hash ?? GENESIS_HASH };
    for (;;) {
      const rows = (
        await this.prisma.$queryRaw<RawRow[]>`
        SELECT ${COLUMNS} FROM ${SEALED} WHERE s.tenant_id = ${tenantId}::uuid AND s.seq > ${at.seq}::bigint ORDER BY s.seq LIMIT ${pageSize}`
      ).map(toFields);
      if (!rows.length) break;
      const checked = verifyRows(tenantId, at, rows);
      if (!checked.ok) {
        report.ok = false;
        report.break = checked.break;
        report.records += rows.findIndex((r) => r.id === checked.break.id);
        return report;
      }
      report.records += rows.length;
      at = checked;
    }
    if (at.seq !== report.headSeq || (chain && at.hash !== chain.hash)) {
      report.ok = false;
      report.break =
        at.seq < report.headSeq
          ? {
              tenantId,
              kind: 'missing',
              seq: at.seq + 1,
              previousId: at.id,
              detail: `record #${at.seq + 1}${report.headSeq > at.seq + 1 ? ` to #${report.headSeq}` : ''} missing (deleted) at the end of the chain`,
            }
          : { tenantId, kind: 'head_mismatch', seq: at.seq, previousId: at.id, detail: `the chain's head (#${report.headSeq}) does not match its last record` };
    }
    return report;
  }

  /**
   * Deletes the tenant's sealed rows written before `cutoff`, oldest first, at most `batch` per transaction, and moves
   * the anchor to the last one deleted so the rest still verifies. Each batch is its own short transaction (only the
   * chain's head row is locked, and only as long as one DELETE): the API never waits on a prune. Returns how many rows
   * were deleted.
   */
  async prune(tenantId: string, cutoff: Date, batch = 1000): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.prisma.transactional(async () => {
        const [chain] = await this.prisma.$queryRaw<Array<{ anchor_seq: bigint }>>`
          SELECT anchor_seq FROM audit_chains WHERE tenant_id = ${tenantId}::uuid FOR UPDATE`;
        if (!chain) return 0;
        // the oldest rows in chain order, up to the first one that is still to be kept
        const rows = await this.prisma.$queryRaw<Array<{ seq: bigint; hash: string; created_at: Date; id: string }>>`
          SELECT s.seq, s.hash, a.created_at, a.id::text AS id FROM ${SEALED} WHERE s.tenant_id = ${tenantId}::uuid AND s.seq > ${chain.anchor_seq}::bigint
          ORDER BY s.seq LIMIT ${batch}`;
        let last = -1;
        while (last + 1 < rows.length && (rows[last + 1] as { created_at: Date }).created_at < cutoff) last++;
        if (last < 0) return 0;
        const anchor = rows[last] as { seq: bigint; hash: string };
        const deleted = await this.prisma.$executeRaw`
          DELETE FROM audit_events WHERE id = ANY(${rows.slice(0, last + 1).map((r) => r.id)}::uuid[])`;
        await this.prisma.$executeRaw`
          DELETE FROM audit_seals WHERE tenant_id = ${tenantId}::uuid AND seq > ${chain.anchor_seq}::bigint AND seq <= ${anchor.seq}::bigint`;
        await this.prisma.$executeRaw`
          UPDATE audit_chains SET anchor_seq = ${anchor.seq}::bigint, anchor_hash = ${anchor.hash}, updated_at = now() WHERE tenant_id = ${tenantId}::uuid`;
        return deleted;
      });
      total += n;
      if (n < batch) return total;
    }
  }

  /** Each chain's retention in days: the operator's per-tenant setting, else `defaultDays`. */
  async retentions(defaultDays: number): Promise<Array<{ tenantId: string; days: number }>> {
    const rows = await this.prisma.$queryRaw<Array<{ tenant_id: string; retention_days: number | null }>>`
      SELECT tenant_id::text AS tenant_id, retention_days FROM audit_chains ORDER BY tenant_id`;
    return rows.map((r) => ({ tenantId: r.tenant_id, days: r.retention_days ?? defaultDays }));
  }

  /** Sets (days) or clears (null) a tenant's retention; the chain row is created if the tenant has none yet. */
  async setRetention(tenantId: string, days: number | null): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO audit_chains (tenant_id, seq, hash, anchor_seq, anchor_hash, retention_days) VALUES (${tenantId}::uuid, 0, ${GENESIS_HASH}, 0, ${GENESIS_HASH}, ${days})
      ON CONFLICT (tenant_id) DO UPDATE SET retention_days = EXCLUDED.retention_days, updated_at = now()`;
  }

  /** A tenant's sealed rows in chain order, `since`/`until` by created_at, a page after `afterSeq`. */
  async page(
    tenantId: string,
    opts: { since?: Date; until?: Date; afterSeq?: number; limit?: number },
  ): Promise<Array<ChainedFields & { hash: string | null }>> {
    const rows = await this.prisma.$queryRaw<RawRow[]>`
      SELECT ${COLUMNS} FROM ${SEALED}
      WHERE s.tenant_id = ${tenantId}::uuid AND s.seq > ${opts.afterSeq ?? 0}::bigint
        AND (${opts.since ?? null}::timestamptz IS NULL OR a.created_at >= ${opts.since ?? null}::timestamptz)
        AND (${opts.until ?? null}::timestamptz IS NULL OR a.created_at <= ${opts.until ?? null}::timestamptz)
      ORDER BY s.seq LIMIT ${opts.limit ?? 1000}`;
    return rows.map(toFields);
  }
}
