import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, SqlPool, auditRecordsInsert, auditSignal, outboxInsert, type AuditRecordInput, type OutboxEvent } from '@coffer/db';

export interface TokenIntentRow {
  tenant_id: string;
  id: string;
  type: string;
  data_ciphertext: Uint8Array;
  data_key_id: string;
  fingerprint: string;
  created_by: string | null;
  created_at: Date;
  expires_at: Date;
}

const COLUMNS = Prisma.sql`tenant_id, id, type, data_ciphertext, data_key_id, fingerprint, created_by, created_at, expires_at`;
/** An expired intent is gone for every caller at once, before the sweep deletes it (as tokens: docs/tokens.md#expiry). */
const UNEXPIRED = Prisma.sql`expires_at > now()`;
/** A converted intent is only a marker (no data) until it expires: gone for every read. */
const LIVE = Prisma.sql`${UNEXPIRED} AND converted_at IS NULL`;

/** What a conversion found: the intent consumed, one consumed before (a marker), or none at all. */
export type ConsumeOutcome = 'consumed' | 'already-converted' | 'none';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * token_intents (owned by token-service). Every method takes the tenant id; an id that is not a UUID names no intent
 * (answered without a query). Inside a unit of work (PrismaService.transactional) every statement joins it: a
 * conversion consumes its intent in the transaction that writes the token.
 */
@Injectable()
export class TokenIntentRepository {
  constructor(
    private readonly prisma: PrismaService,
    /** the create and the delete a checkout page makes: one prepared statement each */
    private readonly sql: SqlPool,
  ) {}

  /** The intent with its audit record and its event, in one statement: they commit together (joins a unit of work). */
  async insert(row: TokenIntentRow, audit: AuditRecordInput[], event: OutboxEvent): Promise<void> {
    await this.sql.query(
      Prisma.sql`
        WITH i AS (
          INSERT INTO token_intents (${COLUMNS})
          VALUES (${row.tenant_id}::uuid, ${row.id}::uuid, ${row.type}::text, ${Buffer.from(row.data_ciphertext)}::bytea, ${row.data_key_id}::uuid,
            ${row.fingerprint}::text, ${row.created_by}::uuid, ${row.created_at}::timestamptz, ${row.expires_at}::timestamptz)
          RETURNING id
        ), a AS (${auditRecordsInsert(audit, Prisma.sql`EXISTS (SELECT 1 FROM i)`)}),
        o AS (${outboxInsert([event], Prisma.raw('i'))})
        SELECT id FROM i`,
      'token_intent_insert',
    );
    auditSignal.afterCommit();
  }

  async findLive(tenantId: string, id: string): Promise<TokenIntentRow | null> {
    if (!UUID.test(id)) return null;
    const rows = await this.prisma.$queryRaw<TokenIntentRow[]>`
      SELECT ${COLUMNS} FROM token_intents WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND ${LIVE}`;
    return rows[0] ?? null;
  }

  /**
   * Deletes a live intent with its audit record and its event, in one statement (joins a unit of work); false, and
   * nothing written, when there was none (never created, expired, already deleted or converted).
   */
  async deleteLive(tenantId: string, id: string, audit: AuditRecordInput[], event: OutboxEvent): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const gone = await this.sql.query<{ id: string }>(
      Prisma.sql`
        WITH g AS (DELETE FROM token_intents WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND ${LIVE} RETURNING id),
        a AS (${auditRecordsInsert(audit, Prisma.sql`EXISTS (SELECT 1 FROM g)`)}),
        o AS (${outboxInsert([event], Prisma.raw('g'))})
        SELECT id FROM g`,
      'token_intent_delete',
    );
    if (gone.length) auditSignal.afterCommit();
    return gone.length > 0;
  }

  /**
   * Marks a live intent converted and clears its data, in the caller's transaction (the token's). Of two concurrent
   * conversions the second waits for the first's row lock, then finds the marker: an intent is converted once.
   */
  async consume(tenantId: string, id: string): Promise<ConsumeOutcome> {
    if (!UUID.test(id)) return 'none';
    const rows = await this.prisma.$queryRaw<Array<{ consumed: boolean }>>`
      WITH c AS (
        UPDATE token_intents SET converted_at = now(), data_ciphertext = NULL, data_key_id = NULL
        WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND ${LIVE} RETURNING id
      )
      SELECT EXISTS (SELECT 1 FROM c) AS consumed`;
    if (rows[0]?.consumed) return 'consumed';
    return (await this.wasConverted(tenantId, id)) ? 'already-converted' : 'none';
  }

  /** Whether the id names an unexpired intent that was converted (the marker a conversion leaves). */
  async wasConverted(tenantId: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const rows = await this.prisma.$queryRaw<Array<{ one: number }>>`
      SELECT 1 AS one FROM token_intents WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND ${UNEXPIRED} AND converted_at IS NOT NULL`;
    return rows.length > 0;
  }

  /** The expiry sweep: expired intents in batches; SKIP LOCKED lets several replicas sweep side by side. */
  async deleteExpired(limit: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM token_intents WHERE (tenant_id, id) IN (
        SELECT tenant_id, id FROM token_intents WHERE expires_at <= now() ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )`;
  }

  /** Whether any intent has expired: one index probe, so a sweep with nothing to do costs almost nothing. */
  async anyExpired(): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<Array<{ one: number }>>`SELECT 1 AS one FROM token_intents WHERE expires_at <= now() LIMIT 1`;
    return rows.length > 0;
  }
}
