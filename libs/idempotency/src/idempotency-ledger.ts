import { ProblemError } from '@coffer/contracts';
import { Prisma, type PrismaService, type SqlPool } from '@coffer/db';
import type { TenantKeyring } from '@coffer/crypto/keyring';
import type { IdempotentRequest } from './idempotent-request';

/** How long a key is remembered (docs/api-reference.md). */
export const RETENTION_HOURS = 24;

export type LedgerEntry =
  | { state: 'completed'; reply: unknown }
  /** a long-running request holds the key until `lockedUntil`; after that a retry may take it over */
  | { state: 'running'; lockedUntil: Date };

interface Row {
  request_hash: string;
  reply_key_id: string | null;
  reply: Uint8Array | null;
  locked_until: Date | null;
  completed_at: Date | null;
}

/** Anything that runs SQL: the service's client, an explicit transaction, or the ambient one. */
type Db = Pick<Prisma.TransactionClient, '$queryRaw' | '$executeRaw'>;

/** A completed request's record, ready to be written by a statement (IdempotencyLedger.seal). */
export interface SealedRecord extends IdempotentRequest {
  /** the key's in-flight lock (inFlightLockName) */
  lock: string;
  replyKeyId: string;
  reply: Uint8Array;
}

/**
 * `record` and `hold` as the first CTEs of a write's own statement, for writes made of one statement outside any
 * transaction (each commits with its records): `idem_hold` (`ord`, `held`: the key's in-flight lock) and
 * `idem_recorded` (`ord` of each request recorded). `ord` is the place of the record's write in the statement. The
 * write's CTEs must take their rows only where their `ord` is in idem_recorded, so that nothing is written unless
 * the key was: a key in flight elsewhere (not `held`), or recorded by another request meanwhile, leaves its write
 * without effect. No two records of one statement may share a key. Every value is an array parameter, so the text
 * is one whatever the number of records, and can be prepared.
 */
export function recordingMany(records: Array<{ ord: number; record: SealedRecord }>): Prisma.Sql {
  const col = <T>(f: (r: SealedRecord) => T) => records.map((r) => f(r.record));
  return recordingFrom(Prisma.sql`
    SELECT * FROM unnest(${records.map((r) => r.ord)}::int[], ${col((r) => r.lock)}::text[], ${col((r) => r.tenantId)}::uuid[],
      ${col((r) => r.ownerId)}::uuid[], ${col((r) => r.key)}::text[], ${col((r) => r.route)}::text[], ${col((r) => r.requestHash)}::text[],
      ${col((r) => r.replyKeyId)}::uuid[], ${col((r) => r.reply)}::bytea[])
    AS k(ord, lock, tenant_id, owner_id, key, route, request_hash, reply_key_id, reply)`);
}

/** `recordingMany` for one record (`ord` 0), without array parameters (a statement the ORM runs, in a transaction). */
function recordingOne(r: SealedRecord): Prisma.Sql {
  return recordingFrom(Prisma.sql`
    SELECT 0 AS ord, ${r.lock}::text AS lock, ${r.tenantId}::uuid AS tenant_id, ${r.ownerId}::uuid AS owner_id, ${r.key}::text AS key,
      ${r.route}::text AS route, ${r.requestHash}::text AS request_hash, ${r.replyKeyId}::uuid AS reply_key_id, ${r.reply}::bytea AS reply`);
}

function recordingFrom(records: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    idem_k AS (${records}),
    idem_hold AS (SELECT ord, pg_try_advisory_xact_lock(hashtextextended(lock, 0)) AS held FROM idem_k),
    idem_written AS (
      INSERT INTO idempotency_records (tenant_id, owner_id, key, route, request_hash, reply_key_id, reply, created_at, completed_at)
      SELECT k.tenant_id, k.owner_id, k.key, k.route, k.request_hash, k.reply_key_id, k.reply, now(), now()
      FROM idem_k k JOIN idem_hold h ON h.ord = k.ord WHERE h.held
      ON CONFLICT (tenant_id, owner_id, key) DO UPDATE SET ${REPLACED}, locked_until = NULL
        WHERE ${EXPIRED}
      RETURNING tenant_id, owner_id, key
    ),
    idem_recorded AS (
      SELECT k.ord FROM idem_k k JOIN idem_written w ON w.tenant_id = k.tenant_id AND w.owner_id = k.owner_id AND w.key = k.key
    )`;
}

/** The stored record under a key, past retention: it no longer holds the key, and a new request's record replaces it. */
const EXPIRED = Prisma.sql`idempotency_records.created_at <= now() - make_interval(hours => ${RETENTION_HOURS})`;
/** Every column of a replaced record but `locked_until`, from the new request's row. */
const REPLACED = Prisma.sql`route = EXCLUDED.route, request_hash = EXCLUDED.request_hash, reply_key_id = EXCLUDED.reply_key_id,
  reply = EXCLUDED.reply, created_at = EXCLUDED.created_at, completed_at = EXCLUDED.completed_at`;

export function inProgress(): ProblemError {
  return new ProblemError(409, 'A request with this idempotency key is still in progress');
}

/**
 * The name of the advisory lock a write holds on its key until it commits (IdempotencyLedger.hold, recordingMany);
 * 64-bit hashed (hashtextextended), so two keys in flight at once practically never share one.
 */
export function inFlightLockName(req: Pick<IdempotentRequest, 'tenantId' | 'ownerId' | 'key'>): string {
  return `idempotency:${req.tenantId}:${req.ownerId}:${req.key}`;
}

function reusedKey(): ProblemError {
  return new ProblemError(422, 'This idempotency key was already used for a different request');
}

/**
 * idempotency_records: what each idempotent request answered, written by the service that owns the write. Replies
 * are stored encrypted with the tenant's data key (they may hold API keys, session keys or token ids) and bound to
 * their row (AAD), so a row copied onto another key does not decrypt.
 */
export class IdempotencyLedger {
  constructor(
    private readonly prisma: PrismaService,
    private readonly keyring: TenantKeyring,
    /** the hot-path pool: the lookup every write with a key starts with, outside its transaction */
    private readonly sql: SqlPool,
  ) {}

  /** The recorded outcome of `req`'s key, null when there is none. A different request under the key is a 422. */
  async find(req: IdempotentRequest): Promise<LedgerEntry | null> {
    const rows = await this.sql.query<Row>(
      Prisma.sql`
        SELECT request_hash, reply_key_id, reply, locked_until, completed_at FROM idempotency_records
        WHERE tenant_id = ${req.tenantId}::uuid AND owner_id = ${req.ownerId}::uuid AND key = ${req.key}
          AND created_at > now() - make_interval(hours => ${RETENTION_HOURS})`,
      'idempotency_find',
    );
    const row = rows[0];
    if (!row) return null;
    if (row.request_hash !== req.requestHash) throw reusedKey();
    if (!row.completed_at) return { state: 'running', lockedUntil: row.locked_until ?? new Date(0) };
    const reply = row.reply && row.reply_key_id ? await this.keyring.decryptJson(req.tenantId, row.reply_key_id, row.reply, this.aad(req)) : null;
    return { state: 'completed', reply };
  }

  /**
   * Marks `req`'s key in flight for the rest of the caller's transaction: a transaction-scoped advisory lock on the key
   * (`inFlightLockName`), taken as the write's transaction opens and held until it commits or rolls back. A repeat
   * that finds it taken is a 409 at once ("a repeat while the first is still in flight gets 409"), instead of waiting
   * on a unique index for the first's commit. The lock is released only after the commit is visible, so a repeat that
   * takes it next finds the record and replays it.
   */
  async hold(req: IdempotentRequest, db: Db = this.prisma): Promise<void> {
    const [lock] = await db.$queryRaw<Array<{ held: boolean }>>`
      SELECT pg_try_advisory_xact_lock(hashtextextended(${inFlightLockName(req)}, 0)) AS held`;
    if (!lock.held) throw inProgress();
  }

  /**
   * Records the completed request inside the caller's transaction. False when the key is taken: another request
   * with it committed first, so the caller must roll back its write and replay that request's reply. The statement
   * takes the key's in-flight lock too (`hold`; the same transaction holds it already, re-taking it is free): a
   * write that did not hold it first is still never recorded beside another in flight. A record of the key past
   * retention is replaced (it no longer holds the key, even before the sweeper removes it).
   */
  async record(req: IdempotentRequest, reply: unknown, db: Db = this.prisma): Promise<boolean> {
    const [outcome] = await db.$queryRaw<Array<{ held: boolean; recorded: boolean }>>`
      WITH ${recordingOne(await this.seal(req, reply))}
      SELECT (SELECT held FROM idem_hold) AS held, EXISTS (SELECT 1 FROM idem_recorded) AS recorded`;
    if (!outcome.held) throw inProgress();
    return outcome.recorded;
  }

  /** `req`'s record as a statement that writes it needs it (recordingMany): its columns, the reply encrypted. */
  async seal(req: IdempotentRequest, reply: unknown): Promise<SealedRecord> {
    const sealed = await this.keyring.encryptJson(req.tenantId, this.aad(req), reply ?? null);
    return { ...req, lock: inFlightLockName(req), replyKeyId: sealed.keyId, reply: sealed.ciphertext };
  }

  /** Takes back a completed record of `req` (its write could not be made after all): the key is free again. */
  async withdraw(req: IdempotentRequest): Promise<void> {
    await this.prisma.$executeRaw`
      DELETE FROM idempotency_records
      WHERE tenant_id = ${req.tenantId}::uuid AND owner_id = ${req.ownerId}::uuid AND key = ${req.key} AND request_hash = ${req.requestHash}`;
  }

  /**
   * Claims the key for a long-running request until `leaseMs` from now (committed at once, so a concurrent repeat
   * sees it and gets 409). A claim whose lease ran out (its service died) is taken over. False when someone else
   * holds or completed it.
   */
  async claim(req: IdempotentRequest, leaseMs: number): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<unknown[]>`
      INSERT INTO idempotency_records (tenant_id, owner_id, key, route, request_hash, locked_until, created_at)
      VALUES (${req.tenantId}::uuid, ${req.ownerId}::uuid, ${req.key}, ${req.route}, ${req.requestHash},
        now() + make_interval(secs => ${leaseMs / 1000}), now())
      ON CONFLICT (tenant_id, owner_id, key) DO UPDATE SET ${REPLACED}, locked_until = EXCLUDED.locked_until
        WHERE ${EXPIRED} OR (idempotency_records.completed_at IS NULL AND idempotency_records.locked_until < now()
          AND idempotency_records.request_hash = EXCLUDED.request_hash)
      RETURNING 1`;
    return rows.length === 1;
  }

  /** Completes a claimed request with its reply. */
  async complete(req: IdempotentRequest, reply: unknown): Promise<void> {
    const sealed = await this.keyring.encryptJson(req.tenantId, this.aad(req), reply ?? null);
    await this.prisma.$executeRaw`
      UPDATE idempotency_records SET reply_key_id = ${sealed.keyId}::uuid, reply = ${sealed.ciphertext}, completed_at = now(), locked_until = NULL
      WHERE tenant_id = ${req.tenantId}::uuid AND owner_id = ${req.ownerId}::uuid AND key = ${req.key} AND completed_at IS NULL`;
  }

  /** Gives up a claim: the request failed, and docs/api-reference.md processes a failed request again. */
  async release(req: IdempotentRequest): Promise<void> {
    await this.prisma.$executeRaw`
      DELETE FROM idempotency_records
      WHERE tenant_id = ${req.tenantId}::uuid AND owner_id = ${req.ownerId}::uuid AND key = ${req.key} AND completed_at IS NULL`;
  }

  /** Drops every record past retention (run periodically by each service; cheap with the created_at index). */
  async sweep(): Promise<number> {
    return this.prisma.$executeRaw`DELETE FROM idempotency_records WHERE created_at <= now() - make_interval(hours => ${RETENTION_HOURS})`;
  }

  private aad(req: IdempotentRequest): string {
    return `idempotency:${req.ownerId}:${req.key}`;
  }
}
