import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, SqlPool, auditInsert, inTransaction, isUniqueViolation, outboxInsert, type OutboxEvent } from '@coffer/db';
import { recordingMany, type SealedRecord } from '@coffer/idempotency';
import { changeEventInsert, createEventInsert, readEventInsert } from '../audit/audit.repository';

/** A token row as stored: data only as ciphertext. */
export interface TokenRow {
  tenant_id: string;
  id: string;
  type: string;
  data_ciphertext: Uint8Array;
  data_key_id: string;
  mask: unknown;
  fingerprint: string;
  fingerprint_expression: string;
  container: string;
  metadata: Record<string, string>;
  search_indexes: string[];
  dedup_key: string | null;
  expires_at: Date | null;
  created_by: string | null;
  created_at: Date;
  modified_by: string | null;
  modified_at: Date | null;
}

export interface TokenListFilter {
  ids?: string[];
  types?: string[];
  /** lower-cased key → lower-cased value */
  metadata?: Record<string, string>;
  /** a compiled search expression */
  where?: Prisma.Sql;
}

const COLUMNS = Prisma.sql`tenant_id, id, type, data_ciphertext, data_key_id, mask, fingerprint, fingerprint_expression,
  container, metadata, search_indexes, dedup_key, expires_at, created_by, created_at, modified_by, modified_at`;
const COLUMNS_OF_T = Prisma.sql`t.tenant_id, t.id, t.type, t.data_ciphertext, t.data_key_id, t.mask, t.fingerprint, t.fingerprint_expression,
  t.container, t.metadata, t.search_indexes, t.dedup_key, t.expires_at, t.created_by, t.created_at, t.modified_by, t.modified_at`;
const LIVE = Prisma.sql`(expires_at IS NULL OR expires_at > now())`;

/** Who changes a token, for the audit record its UPDATE or DELETE writes. */
export interface AuditedBy {
  actorApplicationId: string | null;
  traceId: string | null;
}

const preparedNames = new Map<string, string>();

/** A stable, short (PostgreSQL keeps 63 bytes) statement name for each constant variant of a statement. */
function preparedName(base: string, variant: string): string {
  const key = `${base}\u0000${variant}`;
  let name = preparedNames.get(key);
  if (!name) {
    name = `${base}_${createHash('sha1').update(variant).digest('hex').slice(0, 12)}`;
    preparedNames.set(key, name);
  }
  return name;
}

function lowerMetadata(metadata: Record<string, string>): string {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata)) out[k.toLowerCase()] = v.toLowerCase();
  return JSON.stringify(out);
}

function jsonOrNull(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}

/**
 * The token's row, unless its id or dedup key is taken: RETURNING id tells which happened. `from`: a relation the row
 * is written once per row of (an idempotent create's `idem_recorded`, so the row only if its key was recorded).
 */
function insertToken(tenantId: string, t: TokenRow, from?: Prisma.Sql): Prisma.Sql {
  const values = Prisma.sql`${tenantId}::uuid, ${t.id}::text, ${t.type}::text, ${t.data_ciphertext}::bytea, ${t.data_key_id}::uuid,
    ${jsonOrNull(t.mask)}::jsonb, ${t.fingerprint}::text, ${t.fingerprint_expression}::text, ${t.container}::text,
    ${JSON.stringify(t.metadata)}::jsonb, ${lowerMetadata(t.metadata)}::jsonb, ${t.search_indexes}::text[], ${t.dedup_key}::text,
    ${t.expires_at}::timestamptz, ${t.created_by}::uuid, ${t.created_at}::timestamptz`;
  return Prisma.sql`
    INSERT INTO tokens (tenant_id, id, type, data_ciphertext, data_key_id, mask, fingerprint, fingerprint_expression,
      container, metadata, metadata_search, search_indexes, dedup_key, expires_at, created_by, created_at)
    ${from ? Prisma.sql`SELECT ${values} ${from}` : Prisma.sql`VALUES (${values})`}
    ON CONFLICT DO NOTHING RETURNING id`;
}

/** What a create's statement writes with its token (CTE `t`): its search digests, its audit record, its event. */
function withTheToken(tenantId: string, t: TokenRow, searchDigests: string[], audit: { traceId?: string } | undefined, event?: OutboxEvent): Prisma.Sql {
  return Prisma.sql`
    s AS (
      INSERT INTO token_search_indexes (tenant_id, token_id, digest)
      SELECT ${tenantId}::uuid, t.id, d FROM t, unnest(${[...new Set(searchDigests)]}::text[]) AS d ON CONFLICT DO NOTHING
    ), a AS (${createEventInsert(Prisma.raw('t'), tenantId, t.created_by, audit?.traceId ?? null, audit !== undefined)}),
    o AS (${outboxInsert(event ? [event] : [], Prisma.raw('t'))})`;
}

/** One create of a group-committed batch (TokenRepository.insertMany). */
export interface BatchedInsert {
  tenantId: string;
  token: TokenRow;
  searchDigests: string[];
  traceId?: string;
  event?: OutboxEvent;
  /** the create's span (tracing on), taken when it was queued: the batch is written outside any one request */
  traceparent?: string;
  /** an idempotent create's key, recorded by the same statement: the token is written only if its key is */
  record?: SealedRecord;
}

/** What the statement of an idempotent create did (recordingMany): the key held, recorded, the token created. */
export interface RecordedInsert {
  held: boolean;
  recorded: boolean;
  created: boolean;
}

/**
 * Many creates in one statement: the tokens, their search digests, their audit events and their outbox events as one
 * multi-row INSERT per table, in one implicit transaction (one commit, one WAL flush, one round trip). A token whose id
 * or dedup key is taken is skipped (ON CONFLICT DO NOTHING) and so are its digests and events; `ord` tells which were
 * written. Every list is a parameter, so the text never changes and the statement is prepared once per connection.
 * The batch must not hold two tokens with the same (tenant, id) or (tenant, dedup key): TokenInserts keeps them apart.
 *
 * `whole`: the entries are one request's (a tokenize's), all or nothing. No token is skipped: a taken id fails the
 * statement, so nothing of it is written. With `whole.record`, the request's idempotency key is recorded by the same
 * statement and every token is written only if it was (the entries carry no record of their own).
 */
function insertTokens(entries: BatchedInsert[], whole?: { record?: SealedRecord }): Prisma.Sql {
  const digests = entries.flatMap((e, i) => [...new Set(e.searchDigests)].map((digest) => ({ ord: i, digest })));
  const events = entries.flatMap((e, i) => (e.event ? [{ ord: i, event: e.event, traceparent: e.traceparent ?? null }] : []));
  const records = whole
    ? whole.record
      ? [{ ord: 0, record: whole.record }]
      : []
    : entries.flatMap((e, i) => (e.record ? [{ ord: i, record: e.record }] : []));
  // without idempotent creates, the statement has none of their parts (a statement of its own, prepared apart)
  const keyed = records.length > 0;
  // which rows the key lets through: a batch's, those of the recorded keys (and those without one); a whole's, all if it was
  const perEntryKeys = keyed && !whole;
  const recordedOnly = !keyed
    ? Prisma.empty
    : whole
      ? Prisma.sql`WHERE EXISTS (SELECT 1 FROM idem_recorded)`
      : Prisma.sql`WHERE NOT k.keyed OR k.ord IN (SELECT ord FROM idem_recorded)`;
  const col = <T>(f: (e: BatchedInsert) => T) => entries.map(f);
  return Prisma.sql`
    WITH ${keyed ? Prisma.sql`${recordingMany(records)},` : Prisma.empty} k AS (
      SELECT * FROM unnest(${entries.map((_, i) => i)}::int[], ${col((e) => e.tenantId)}::uuid[], ${col((e) => e.token.id)}::text[],
        ${col((e) => e.token.type)}::text[], ${col((e) => e.token.data_ciphertext)}::bytea[], ${col((e) => e.token.data_key_id)}::uuid[],
        ${col((e) => jsonOrNull(e.token.mask))}::jsonb[], ${col((e) => e.token.fingerprint)}::text[], ${col((e) => e.token.fingerprint_expression)}::text[],
        ${col((e) => e.token.container)}::text[], ${col((e) => JSON.stringify(e.token.metadata))}::jsonb[], ${col((e) => lowerMetadata(e.token.metadata))}::jsonb[],
        ${col((e) => JSON.stringify(e.token.search_indexes))}::jsonb[], ${col((e) => e.token.dedup_key)}::text[], ${col((e) => e.token.expires_at)}::timestamptz[],
        ${col((e) => e.token.created_by)}::uuid[], ${col((e) => e.token.created_at)}::timestamptz[], ${col((e) => e.traceId ?? null)}::text[]
        ${perEntryKeys ? Prisma.sql`, ${col((e) => e.record !== undefined)}::boolean[]` : Prisma.empty})
      AS k(ord, tenant_id, id, type, data_ciphertext, data_key_id, mask, fingerprint, fingerprint_expression, container, metadata,
        metadata_search, search_indexes, dedup_key, expires_at, created_by, created_at, trace_id ${perEntryKeys ? Prisma.sql`, keyed` : Prisma.empty})
    ), t AS (
      INSERT INTO tokens (tenant_id, id, type, data_ciphertext, data_key_id, mask, fingerprint, fingerprint_expression,
        container, metadata, metadata_search, search_indexes, dedup_key, expires_at, created_by, created_at)
      SELECT tenant_id, id, type, data_ciphertext, data_key_id, mask, fingerprint, fingerprint_expression, container, metadata,
        metadata_search, ARRAY(SELECT jsonb_array_elements_text(k.search_indexes)), dedup_key, expires_at, created_by, created_at
      FROM k ${recordedOnly} ORDER BY ord
      ${whole ? Prisma.empty : Prisma.sql`ON CONFLICT DO NOTHING`} RETURNING tenant_id, id
    ), w AS (
      SELECT k.ord, k.tenant_id, k.id, k.created_by, k.trace_id FROM t JOIN k ON k.tenant_id = t.tenant_id AND k.id = t.id
    ), s AS (
      INSERT INTO token_search_indexes (tenant_id, token_id, digest)
      SELECT w.tenant_id, w.id, d.digest FROM w
      JOIN unnest(${digests.map((d) => d.ord)}::int[], ${digests.map((d) => d.digest)}::text[]) AS d(ord, digest) ON d.ord = w.ord
      ON CONFLICT DO NOTHING
    ), a AS (${auditInsert(
      {
        tenantId: Prisma.sql`w.tenant_id`,
        actorApplicationId: Prisma.sql`w.created_by`,
        operation: 'create',
        entityType: 'token',
        entityId: Prisma.sql`w.id`,
        traceId: Prisma.sql`w.trace_id`,
      },
      Prisma.raw('w'),
    )}), o AS (
      INSERT INTO event_outbox (id, tenant_id, type, event, traceparent)
      SELECT e.id, w.tenant_id, e.type, e.event, e.traceparent FROM w
      JOIN unnest(${events.map((e) => e.ord)}::int[], ${events.map((e) => e.event.id)}::uuid[], ${events.map((e) => e.event.type)}::text[],
        ${events.map((e) => JSON.stringify(e.event))}::jsonb[], ${events.map((e) => e.traceparent)}::text[]) AS e(ord, id, type, event, traceparent) ON e.ord = w.ord
    )
    ${
      perEntryKeys
        ? Prisma.sql`
          SELECT k.ord, w.ord IS NOT NULL AS created, COALESCE(h.held, true) AS held, r.ord IS NOT NULL AS recorded
          FROM k LEFT JOIN w ON w.ord = k.ord LEFT JOIN idem_hold h ON h.ord = k.ord LEFT JOIN idem_recorded r ON r.ord = k.ord`
        : keyed
          ? Prisma.sql`SELECT (SELECT held FROM idem_hold) AS held, EXISTS (SELECT 1 FROM idem_recorded) AS recorded, (SELECT count(*)::int FROM w) AS created`
          : whole
            ? Prisma.sql`SELECT true AS held, true AS recorded, (SELECT count(*)::int FROM w) AS created`
            : Prisma.sql`SELECT ord, true AS created FROM w`
    }`;
}

/** Where a keyset page starts: the exact `created_at` (ISO 8601, microseconds) and id of the row before it. */
export interface KeysetPosition {
  at: string;
  id: string;
}

/** 'created-audited': created and its audit event written in the same statement */
export type InsertOutcome = 'created' | 'created-audited' | 'id_taken' | 'duplicate';

/**
 * tokens and token_search_indexes (owned by token-service). Every method takes the tenant id; an expired token is
 * invisible to every read at once (the predicate), before the sweeper removes it. Inside a unit of work
 * (PrismaService.transactional) every statement, SqlPool's included, joins it; the multi-statement writes open their
 * own (a savepoint of the caller's when one is open).
 */
@Injectable()
export class TokenRepository {
  constructor(
    private readonly prisma: PrismaService,
    /** hot-path statements (single reads, lists, the one-statement create) run on plain pg */
    private readonly sql: SqlPool,
  ) {}

  /**
   * Inserts the token and its search digests. The common case is one statement (atomic, one round trip); a
   * conflict (id taken, duplicate, or an expired holder to clear) takes the careful path in a transaction. Inside
   * a unit of work (tokenize: several tokens all-or-nothing) both run in the caller's transaction.
   */
  async insert(tenantId: string, t: TokenRow, searchDigests: string[], audit?: { traceId?: string }, event?: OutboxEvent): Promise<InsertOutcome> {
    // Inside a unit of work with no audit event to carry (a tokenize audits its tokens in one statement at the end),
    // plain statements: a statement in an open transaction goes through Prisma unprepared, so the combined one below
    // would be parsed and planned for every token (a tokenize of 10 values cost PostgreSQL 50 % more CPU).
    if (!audit && inTransaction()) return this.insertCarefully(tenantId, t, searchDigests, event);
    // the create's audit event rides in the same statement: one round trip and one commit for the whole create
    const inserted = await this.sql.query<{ id: string }>(
      Prisma.sql`WITH t AS (${insertToken(tenantId, t)}), ${withTheToken(tenantId, t, searchDigests, audit, event)} SELECT id FROM t`,
      // every create: its text never changes, so it is parsed and planned once per connection
      'token_insert_audited',
    );
    if (inserted.length) return audit ? 'created-audited' : 'created';
    return this.insertAfterConflict(tenantId, t, searchDigests, event);
  }

  /**
   * An idempotent create as one statement, outside any transaction: the key's record (`record`, written by
   * recordingMany's CTEs) first, then the token and everything `insert` writes with it, only if the key was
   * recorded; all of it commits together. For a token whose id is fresh and that is not deduplicated: such a row
   * meets no conflict, so a recorded key always has its token (`created` false with `recorded` true is the caller's to
   * undo).
   */
  async insertRecorded(
    tenantId: string,
    t: TokenRow,
    searchDigests: string[],
    audit: { traceId?: string },
    event: OutboxEvent,
    record: SealedRecord,
  ): Promise<RecordedInsert> {
    const [outcome] = await this.sql.query<RecordedInsert>(
      Prisma.sql`
      WITH ${recordingMany([{ ord: 0, record }])}, t AS (${insertToken(tenantId, t, Prisma.sql`FROM idem_recorded`)}),
      ${withTheToken(tenantId, t, searchDigests, audit, event)}
      SELECT (SELECT held FROM idem_hold) AS held, EXISTS (SELECT 1 FROM idem_recorded) AS recorded, EXISTS (SELECT 1 FROM t) AS created`,
      'token_insert_recorded',
    );
    return outcome;
  }

  /**
   * Creates of one group commit (TokenInserts): written together, audited in the same statement, an idempotent one
   * with its key's record. Returns, per entry, what its statement did; one without a key that was not `created` met a
   * taken id or dedup key and goes on with `insertAfterConflict`.
   */
  async insertMany(entries: BatchedInsert[]): Promise<RecordedInsert[]> {
    const keyed = entries.some((e) => e.record);
    const rows = await this.sql.query<Partial<RecordedInsert> & { ord: number }>(
      insertTokens(entries),
      keyed ? 'token_insert_batch_keyed' : 'token_insert_batch',
    );
    const outcomes: RecordedInsert[] = entries.map(() => ({ held: true, recorded: false, created: false }));
    for (const { ord, held = true, recorded = false, created = false } of rows) outcomes[ord] = { held, recorded, created };
    return outcomes;
  }

  /**
   * One request's tokens, all with fresh ids and none deduplicated (a tokenize's common call), written by one
   * statement with everything `insertMany` writes for each and, with `record`, the request's idempotency key: all or
   * nothing, outside any transaction (prepared). Null when a token's id was taken (only a clash of random UUIDs would
   * do it): the statement failed and wrote nothing. Otherwise what the key's part did (no key: held and recorded);
   * every token was written if and only if `recorded`.
   */
  async insertAll(entries: BatchedInsert[], record?: SealedRecord): Promise<{ held: boolean; recorded: boolean } | null> {
    try {
      const [outcome] = await this.sql.query<{ held: boolean; recorded: boolean; created: number }>(
        insertTokens(entries, { record }),
        record ? 'token_insert_whole_keyed' : 'token_insert_whole',
      );
      return { held: outcome.held, recorded: outcome.recorded };
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  /** A create whose id or dedup key was taken when it was tried: the careful path, in a transaction of its own. */
  insertAfterConflict(tenantId: string, t: TokenRow, searchDigests: string[], event?: OutboxEvent): Promise<InsertOutcome> {
    return this.prisma.transactional(() => this.insertCarefully(tenantId, t, searchDigests, event));
  }

  private async insertCarefully(tenantId: string, t: TokenRow, searchDigests: string[], event?: OutboxEvent): Promise<InsertOutcome> {
    // bounded: each retry follows a delete of an expired holder; a third conflict in a row is reported as id taken
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.prisma.$queryRaw<Array<{ id: string }>>(insertToken(tenantId, t));
      if (inserted.length) {
        await this.writeSearchIndexes(tenantId, t.id, searchDigests);
        if (event) await this.prisma.$executeRaw(outboxInsert([event]));
        return 'created';
      }
      const holder = await this.prisma.$queryRaw<Array<{ live: boolean }>>`
        SELECT ${LIVE} AS live FROM tokens WHERE tenant_id = ${tenantId}::uuid AND id = ${t.id}`;
      if (holder.length) {
        if (holder[0].live) return 'id_taken';
        // an expired token keeps its id until the sweeper runs; it is gone for readers, so the id is free again
        await this.prisma.$executeRaw`DELETE FROM tokens WHERE tenant_id = ${tenantId}::uuid AND id = ${t.id}`;
        await this.prisma.$executeRaw`DELETE FROM token_search_indexes WHERE tenant_id = ${tenantId}::uuid AND token_id = ${t.id}`;
        continue;
      }
      if (t.dedup_key && (await this.releaseExpiredDedupKey(tenantId, t.dedup_key))) continue;
      return 'duplicate';
    }
    return 'id_taken';
  }

  private async releaseExpiredDedupKey(tenantId: string, dedupKey: string): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE tokens SET dedup_key = NULL WHERE tenant_id = ${tenantId}::uuid AND dedup_key = ${dedupKey} AND NOT ${LIVE}`;
    return n > 0;
  }

  private async writeSearchIndexes(tenantId: string, tokenId: string, digests: string[]) {
    const unique = [...new Set(digests)];
    if (!unique.length) return;
    await this.prisma.$executeRaw`
      INSERT INTO token_search_indexes (tenant_id, token_id, digest)
      SELECT ${tenantId}::uuid, ${tokenId}, d FROM unnest(${unique}::text[]) AS d ON CONFLICT DO NOTHING`;
  }

  /**
   * A read that belongs to a write (the deduplication lookups of a tokenize, an update's read) joins the write's unit
   * of work through SqlPool: another connection would not see the rows the write has made so far (two equal tokens in
   * one tokenize).
   */
  async find(tenantId: string, id: string): Promise<TokenRow | null> {
    // the hottest statement of all (every read): prepared once per connection
    const rows = await this.sql.query<TokenRow>(
      Prisma.sql`
      SELECT ${COLUMNS} FROM tokens WHERE tenant_id = ${tenantId}::uuid AND id = ${id} AND ${LIVE}`,
      'token_find',
    );
    return rows[0] ?? null;
  }

  /**
   * `find` and the read's audit event in one statement: the event is written (and committed, before the reply) when the
   * row exists and passes `access`, the SQL form of the caller's read decision. `audited` says whether it was.
   */
  async findAudited(
    tenantId: string,
    id: string,
    access: Prisma.Sql,
    actorApplicationId: string | undefined,
    traceId: string | undefined,
  ): Promise<(TokenRow & { audited: boolean }) | null> {
    const sql = Prisma.sql`
      WITH t AS (SELECT ${COLUMNS} FROM tokens WHERE tenant_id = ${tenantId}::uuid AND id = ${id} AND ${LIVE}),
        a AS (${readEventInsert(Prisma.raw('t'), access, actorApplicationId, traceId)})
      SELECT t.*, EXISTS (SELECT 1 FROM a) AS audited FROM t`;
    // Prepared when the access decision does not depend on the row (no rules: the predicate is constant text); a
    // predicate built from rules carries values and many shapes, which would pile up prepared statements per connection.
    const rows = await this.sql.query<TokenRow & { audited: boolean }>(sql, access.values.length ? undefined : preparedName('token_find_audited', access.text));
    return rows[0] ?? null;
  }

  /**
   * `find` for many (tenant, id) pairs in one statement: the rows in the order asked, null where there is none. A key
   * with `audit` set has its read event written by the same statement when its row exists (the caller's access
   * allows every token, see unconditionalAccess): one round trip and one commit for a whole batch of reads.
   */
  async findEach(
    keys: Array<{ tenantId: string; id: string; audit?: { actorApplicationId: string | undefined; traceId: string | undefined } }>,
  ): Promise<Array<(TokenRow & { audited: boolean }) | null>> {
    const rows = await this.sql.query<TokenRow & { ord: string; audited: boolean }>(
      Prisma.sql`
      WITH k AS (
        SELECT * FROM unnest(${keys.map((k) => k.tenantId)}::uuid[], ${keys.map((k) => k.id)}::text[], ${keys.map((k) => k.audit !== undefined)}::boolean[],
          ${keys.map((k) => k.audit?.actorApplicationId ?? null)}::uuid[], ${keys.map((k) => k.audit?.traceId ?? null)}::text[])
          WITH ORDINALITY AS k(tenant_id, id, audit, actor, trace, ord)
      ), t AS (
        SELECT k.ord, k.audit, k.actor, k.trace, ${COLUMNS_OF_T} FROM k
        JOIN tokens t ON t.tenant_id = k.tenant_id AND t.id = k.id AND (t.expires_at IS NULL OR t.expires_at > now())
      ), a AS (${auditInsert(
        {
          tenantId: Prisma.sql`tenant_id`,
          actorApplicationId: Prisma.sql`actor`,
          operation: 'read',
          entityType: 'token',
          entityId: Prisma.sql`id`,
          traceId: Prisma.sql`trace`,
        },
        Prisma.raw('t'),
        { where: Prisma.sql`audit` },
      )})
      SELECT ord, audit AS audited, ${COLUMNS} FROM t`,
      'token_find_each_audited',
    );
    const out: Array<(TokenRow & { audited: boolean }) | null> = keys.map(() => null);
    for (const { ord, ...row } of rows) out[Number(ord) - 1] = row;
    return out;
  }

  async findMany(tenantId: string, ids: string[]): Promise<TokenRow[]> {
    if (!ids.length) return [];
    return this.sql.query<TokenRow>(Prisma.sql`
      SELECT ${COLUMNS} FROM tokens WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${ids}::text[]) AND ${LIVE}`);
  }

  async findByFingerprint(tenantId: string, type: string, fingerprint: string): Promise<TokenRow | null> {
    const rows = await this.sql.query<TokenRow>(Prisma.sql`
      SELECT ${COLUMNS} FROM tokens
      WHERE tenant_id = ${tenantId}::uuid AND type = ${type} AND fingerprint = ${fingerprint} AND ${LIVE}
      ORDER BY (dedup_key IS NOT NULL) DESC, created_at, id LIMIT 1`);
    return rows[0] ?? null;
  }

  async findByDedupKey(tenantId: string, dedupKey: string): Promise<TokenRow | null> {
    const rows = await this.sql.query<TokenRow>(Prisma.sql`
      SELECT ${COLUMNS} FROM tokens WHERE tenant_id = ${tenantId}::uuid AND dedup_key = ${dedupKey} AND ${LIVE}`);
    return rows[0] ?? null;
  }

  private where(tenantId: string, f: TokenListFilter, access: Prisma.Sql): Prisma.Sql {
    const parts = [Prisma.sql`tenant_id = ${tenantId}::uuid`, LIVE, access];
    if (f.ids?.length) parts.push(Prisma.sql`id = ANY(${f.ids}::text[])`);
    if (f.types?.length) parts.push(Prisma.sql`type = ANY(${f.types}::text[])`);
    if (f.metadata && Object.keys(f.metadata).length) parts.push(Prisma.sql`metadata_search @> ${JSON.stringify(f.metadata)}::jsonb`);
    if (f.where) parts.push(f.where);
    return Prisma.join(parts, ' AND ');
  }

  /**
   * Offset page, ordered by created_at desc, id desc (index tokens_tenant_id_created_at_id_idx). The lists and
   * searches take the caller's `deadline` (performance.now() scale): PostgreSQL cancels their statements when it
   * passes (SqlPool.withinDeadline), so no query outlives the request that asked for it.
   */
  async page(
    tenantId: string,
    f: TokenListFilter,
    offset: number,
    limit: number,
    access: Prisma.Sql,
    deadline?: number,
  ): Promise<{ rows: TokenRow[]; total: number }> {
    const where = this.where(tenantId, f, access);
    return this.sql.withinDeadline(deadline, async (query) => {
      if (limit === 0) {
        const count = await query<{ total: string }>(Prisma.sql`SELECT count(*) AS total FROM tokens WHERE ${where}`);
        return { rows: [], total: Number(count[0]?.total ?? 0) };
      }
      // the page and its total in one statement: one round trip instead of two, and one snapshot, so the total always
      // counts the rows the page was taken from; past the last page, one row holds the total and no token (id NULL)
      const found = await query<TokenRow & { total: string }>(Prisma.sql`
        SELECT page.*, counted.total FROM (SELECT count(*) AS total FROM tokens WHERE ${where}) counted
        LEFT JOIN LATERAL (
          SELECT ${COLUMNS} FROM tokens WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}
        ) page ON true
        ORDER BY page.created_at DESC, page.id DESC`);
      const total = Number(found[0]?.total ?? 0);
      const rows = found.filter((r) => r.id !== null).map(({ total: _, ...row }) => row as TokenRow);
      return { rows, total };
    });
  }

  /** Cursor page: rows strictly after (createdAt, id) in the same order. Fetches one extra to know if more exist. */
  async after(
    tenantId: string,
    f: TokenListFilter,
    cursor: { createdAt: string; id: string } | null,
    limit: number,
    access: Prisma.Sql,
    deadline?: number,
  ): Promise<TokenRow[]> {
    const where = this.where(tenantId, f, access);
    const after = cursor ? Prisma.sql`AND (created_at, id) < (${new Date(cursor.createdAt)}::timestamptz, ${cursor.id})` : Prisma.empty;
    return this.sql.withinDeadline(deadline, (query) =>
      query<TokenRow>(Prisma.sql`
      SELECT ${COLUMNS} FROM tokens WHERE ${where} ${after} ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`),
    );
  }

  /**
   * Keyset page for the v2 lists: rows strictly after `position` in (created_at desc, id desc) order, one extra to
   * know whether more exist. Each row carries its exact position (`created_at` to the microsecond, in UTC), so a
   * cursor built from it never skips or repeats rows that share a millisecond. Uses tokens_tenant_id_created_at_id_idx.
   */
  async keyset(
    tenantId: string,
    f: TokenListFilter,
    position: KeysetPosition | null,
    limit: number,
    access: Prisma.Sql,
    deadline?: number,
  ): Promise<Array<TokenRow & { position_at: string }>> {
    const where = this.where(tenantId, f, access);
    const after = position ? Prisma.sql`AND (created_at, id) < (${position.at}::timestamptz, ${position.id})` : Prisma.empty;
    return this.sql.withinDeadline(deadline, (query) =>
      query<TokenRow & { position_at: string }>(Prisma.sql`
      SELECT ${COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
      FROM tokens WHERE ${where} ${after} ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`),
    );
  }

  /**
   * The token's new state (its `modified_at`: the instant its event shows; now when null), with its search digests
   * replaced, its audit record (`audit`: who updates) and its event, as one statement: all of it commits together, or,
   * when the token is gone or expired ('missing') or its new dedup key is held by another token ('duplicate'),
   * nothing. Inside a unit of work (an idempotent update) the statement runs in a savepoint of it, so a duplicate
   * leaves the unit usable.
   */
  async update(tenantId: string, t: TokenRow, searchDigests: string[], event?: OutboxEvent, audit?: AuditedBy): Promise<TokenRow | 'missing' | 'duplicate'> {
    const digests = [...new Set(searchDigests)];
    // the digests the token keeps are neither deleted (d) nor inserted (s): the two parts of one statement touch
    // different rows, so neither depends on seeing the other's effect (they share one snapshot)
    const statement = Prisma.sql`
      WITH u AS (UPDATE tokens SET data_ciphertext = ${t.data_ciphertext}::bytea, data_key_id = ${t.data_key_id}::uuid, mask = ${jsonOrNull(t.mask)}::jsonb,
        fingerprint = ${t.fingerprint}::text, fingerprint_expression = ${t.fingerprint_expression}::text, container = ${t.container}::text,
        metadata = ${JSON.stringify(t.metadata)}::jsonb, metadata_search = ${lowerMetadata(t.metadata)}::jsonb,
        search_indexes = ${t.search_indexes}::text[], dedup_key = ${t.dedup_key}::text, expires_at = ${t.expires_at}::timestamptz,
        modified_by = ${t.modified_by}::uuid, modified_at = COALESCE(${t.modified_at}::timestamptz, now())
      WHERE tenant_id = ${tenantId}::uuid AND id = ${t.id}::text AND ${LIVE}
      RETURNING ${COLUMNS}),
      ${audit ? Prisma.sql`a AS (${changeEventInsert(Prisma.raw('u'), tenantId, 'update', audit)}),` : Prisma.empty}
      d AS (DELETE FROM token_search_indexes WHERE tenant_id = ${tenantId}::uuid AND token_id IN (SELECT id FROM u) AND NOT (digest = ANY(${digests}::text[]))),
      s AS (INSERT INTO token_search_indexes (tenant_id, token_id, digest)
        SELECT ${tenantId}::uuid, u.id, d FROM u, unnest(${digests}::text[]) AS d ON CONFLICT DO NOTHING),
      o AS (${outboxInsert(event ? [event] : [], Prisma.raw('u'))})
      SELECT * FROM u`;
    try {
      const updated = await this.oneWrite<TokenRow>(statement, audit ? 'token_update' : 'token_update_unaudited');
      return updated[0] ?? 'missing';
    } catch (err) {
      if (isUniqueViolation(err)) return 'duplicate';
      throw err;
    }
  }

  /** `event` and `audit` (who deletes) are written by the same statement, when it deleted a token. */
  async delete(tenantId: string, id: string, event?: OutboxEvent, audit?: AuditedBy): Promise<boolean> {
    const gone = await this.oneWrite<{ id: string }>(
      Prisma.sql`
        WITH g AS (DELETE FROM tokens WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::text AND ${LIVE} RETURNING id),
        ${audit ? Prisma.sql`a AS (${changeEventInsert(Prisma.raw('g'), tenantId, 'delete', audit)}),` : Prisma.empty}
        d AS (DELETE FROM token_search_indexes WHERE tenant_id = ${tenantId}::uuid AND token_id = ${id}::text),
        o AS (${outboxInsert(event ? [event] : [], Prisma.raw('g'))})
        SELECT id FROM g`,
      audit ? 'token_delete' : 'token_delete_unaudited',
    );
    return gone.length > 0;
  }

  /**
   * A write made of one statement: prepared, outside any transaction; inside a unit of work, in a savepoint of it (a
   * statement PostgreSQL refuses then fails only itself, as it would alone).
   */
  private oneWrite<T>(statement: Prisma.Sql, name: string): Promise<T[]> {
    if (!inTransaction()) return this.sql.query<T>(statement, name);
    return this.prisma.transactional(() => this.sql.query<T>(statement));
  }

  /** Sweeper: deletes expired tokens in batches; SKIP LOCKED lets several replicas sweep side by side. */
  async deleteExpired(limit: number, events?: (gone: Array<{ tenant_id: string; id: string }>) => OutboxEvent[]): Promise<number> {
    return this.prisma.transactional(async () => {
      const gone = await this.prisma.$queryRaw<Array<{ tenant_id: string; id: string }>>`
        DELETE FROM tokens WHERE (tenant_id, id) IN (
          SELECT tenant_id, id FROM tokens WHERE expires_at <= now() ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
        ) RETURNING tenant_id, id`;
      if (gone.length)
        await this.prisma.$executeRaw`
          DELETE FROM token_search_indexes s USING unnest(${gone.map((g) => g.tenant_id)}::uuid[], ${gone.map((g) => g.id)}::text[]) AS g(tenant_id, id)
          WHERE s.tenant_id = g.tenant_id AND s.token_id = g.id`;
      if (gone.length && events) await this.prisma.$executeRaw(outboxInsert(events(gone)));
      return gone.length;
    });
  }
}
