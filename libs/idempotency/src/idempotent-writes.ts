import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ProblemError, idempotentReplay, type IdempotentReplay, type RpcEnvelope } from '@coffer/contracts';
import { PrismaService, SqlPool, periodicWork } from '@coffer/db';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { IdempotencyLedger, inProgress, type SealedRecord } from './idempotency-ledger';
import { idempotentRequestOf, type IdempotentRequest } from './idempotent-request';

/**
 * How a long-running request's outcome is recorded and replayed when the reply must be rendered again for the caller
 * of each repeat (a synchronous react's tokenize views are re-capped by the access rules in force at the repeat).
 * `work` yields an outcome `O`; `reply` is what the first caller gets, `record` what is stored (encrypted) under the
 * key, and `replay` turns a stored record into the reply a repeat gets.
 */
export interface ReplayCodec<O, R> {
  reply(outcome: O): R;
  record(outcome: O): unknown;
  replay(recorded: unknown): Promise<R>;
}

/**
 * Thrown by `IdempotentWrite.record` inside the write's transaction when another request recorded the key first: it
 * rolls the write back, and the wrapper replays the winner's reply.
 */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('The idempotency key was recorded by another request meanwhile');
  }
}

/**
 * The key's half of a `transaction` write, for work that opens its own transaction (token-service): `hold`, first in
 * that transaction, marks the key in flight (a repeat meanwhile is a 409); `record` stores what a repeat needs to
 * answer, inside that transaction (`db`, or the ambient one).
 */
export interface IdempotentWrite {
  readonly request: IdempotentRequest;
  hold(db?: Db): Promise<void>;
  record(value: unknown, db?: Db): Promise<void>;
  /** For work that is one statement outside any transaction: the key held and recorded by that statement itself. */
  inStatement(value: unknown): Promise<RecordInStatement>;
}

/** The key's part of a write made as one statement (recordingMany). */
export interface RecordInStatement {
  /** what the statement writes (recordingMany's CTEs) */
  readonly record: SealedRecord;
  /** what the statement said: a key in flight elsewhere is a 409; a key recorded meanwhile, the replay of its reply */
  settle(outcome: { held: boolean; recorded: boolean }): void;
  /** the statement recorded the key but could not make the write its record names: the record is taken back */
  withdraw(): Promise<void>;
}

/** How the wrapper applies a key (docs/api-reference.md); see IdempotentWrites.perform. */
export interface IdempotencyPlan<O, R> {
  mode: 'transaction' | 'exclusive';
  /** undefined without a key: the work just runs */
  request: IdempotentRequest | undefined;
  codec?: ReplayCodec<O, R>;
  /** `exclusive`: how long the claim holds the key */
  leaseMs?: number;
  /**
   * `transaction`: the work opens its transaction (or makes its one statement) itself and records through the
   * IdempotentWrite it is given. Its record is refused when the key was recorded before, so no lookup precedes it: a
   * repeat is told by that refusal, or, when the work fails first, by a lookup then.
   */
  recordsItself?: boolean;
}

type Db = Parameters<IdempotencyLedger['record']>[2];

/** A key another request keeps taking first: a 409, never a loop. */
export function idempotencyKeyBusy(): ProblemError {
  return new ProblemError(409, 'Another request with this idempotency key is being processed; retry it later');
}

/** Rounds of lookup-then-write before a key that keeps being taken first is a 409. */
const ATTEMPTS = 3;

const SWEEP_INTERVAL_MS = 3600_000;

/** The reply is recorded as it is and replayed as it was. */
const PLAIN: ReplayCodec<unknown, unknown> = { reply: (o) => o, record: (o) => o, replay: async (r) => r };

/**
 * SVC-IDEMPOTENCY-KEY in the service that owns the write (docs/api-reference.md). The key is recorded in the same
 * transaction as the write, so whatever happens to the reply (a timeout at the gateway, a dropped connection, a
 * crash after the commit), a retry finds the record and gets the recorded reply instead of a second write.
 *
 * Every writing operation goes through `perform`, applied by the operation dispatcher (libs/operations) in
 * the mode of the operation's row (docs/nats.md).
 */
@Injectable()
export class IdempotentWrites implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  readonly ledger: IdempotencyLedger;
  private readonly sweeper = periodicWork('idempotency-sweep', SWEEP_INTERVAL_MS, () => this.ledger.sweep());

  constructor(
    private readonly prisma: PrismaService,
    keyring: TenantKeyring,
    sql: SqlPool,
  ) {
    this.ledger = new IdempotencyLedger(prisma, keyring, sql);
  }

  onModuleInit(): void {
    this.sweeper.start();
  }

  onModuleDestroy(): void {
    this.sweeper.stop();
  }

  request(route: string, env: RpcEnvelope<unknown>): IdempotentRequest | undefined {
    return idempotentRequestOf(route, env);
  }

  /**
   * The one wrapper of every idempotent write (the operation dispatcher applies it per the operation's mode):
   *
   * - `transaction`: a recorded reply is replayed; otherwise `work` runs and the key is recorded in the same
   *   transaction — the ambient one opened here, or the work's own (`recordsItself`: it calls `write.hold` first and
   *   `write.record` last, or records in its one statement). The transaction holds the key in flight: a repeat
   *   meanwhile is a 409. A repeat that started after the first committed, but looked before it did, rolls back and
   *   replays the winner's reply. A work that records itself runs before any lookup (see IdempotencyPlan).
   * - `exclusive`: the key is claimed first (committed at once: a repeat meanwhile gets 409), the work runs, the
   *   outcome is recorded; a failure releases the key.
   *
   * The codec renders the reply for the first caller and for each repeat (token views re-capped by the rules then).
   */
  async perform<O, R = O>(plan: IdempotencyPlan<O, R>, work: (write?: IdempotentWrite) => Promise<O>): Promise<R | IdempotentReplay<R>> {
    const codec = plan.codec ?? (PLAIN as unknown as ReplayCodec<O, R>);
    const req = plan.request;
    if (!req) return codec.reply(await work());
    return plan.mode === 'exclusive'
      ? this.claimed(req, plan.leaseMs ?? 60_000, codec, work)
      : this.inTransaction(req, codec, work, plan.recordsItself === true);
  }

  private async inTransaction<O, R>(
    req: IdempotentRequest,
    codec: ReplayCodec<O, R>,
    work: (write?: IdempotentWrite) => Promise<O>,
    recordsItself: boolean,
  ): Promise<R | IdempotentReplay<R>> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      // A work that records itself tells a key recorded before it (its record is refused: IdempotencyKeyTaken) by its
      // own statement or transaction, so the first round looks nothing up: a new request, the common case, makes no
      // round trip for a key that is not there. Any other round follows a taken key and starts with its replay.
      const lookedUp = !recordsItself || attempt > 1;
      if (lookedUp) {
        const prior = await this.replayOf(req, codec);
        if (prior) return prior;
      }
      let taken = false;
      const write: IdempotentWrite = {
        request: req,
        hold: (db) => this.ledger.hold(req, db),
        record: async (value, db) => {
          if (await this.ledger.record(req, value, db)) return;
          taken = true;
          throw new IdempotencyKeyTaken();
        },
        inStatement: async (value) => ({
          record: await this.ledger.seal(req, value),
          settle: ({ held, recorded }) => {
            if (!held) throw inProgress();
            if (recorded) return;
            taken = true;
            throw new IdempotencyKeyTaken();
          },
          withdraw: () => this.ledger.withdraw(req),
        }),
      };
      try {
        const outcome = recordsItself
          ? await work(write)
          : await this.prisma.transactional(async () => {
              await write.hold();
              const o = await work();
              await write.record(codec.record(o));
              return o;
            });
        return codec.reply(outcome);
      } catch (err) {
        // the work may hand the error back transformed (an RPC handler's exception filter): `taken` says what it was
        if (taken || err instanceof IdempotencyKeyTaken) continue;
        if (lookedUp) throw err;
        // it ran without a lookup: a repeat it refused (an id it already wrote, an intent it already consumed, an expiry
        // passed since) gets what the lookup would have given it first
        return this.replayAfterFailure(req, codec, err);
      }
    }
    throw idempotencyKeyBusy();
  }

  /**
   * The answer to a request whose work failed before its key was looked up: the recorded reply when the key was used
   * by this request before, a 422 when by another, a 409 while a claim runs; otherwise the work's own failure (also
   * when the lookup itself fails: the work's error is the one the caller is owed).
   */
  private async replayAfterFailure<O, R>(req: IdempotentRequest, codec: ReplayCodec<O, R>, failure: unknown): Promise<IdempotentReplay<R>> {
    let prior: IdempotentReplay<R> | null;
    try {
      prior = await this.replayOf(req, codec);
    } catch (err) {
      throw err instanceof ProblemError ? err : failure;
    }
    if (prior) return prior;
    throw failure;
  }

  /**
   * An exclusive write's first step: the recorded reply of a completed request (`recorded`), or the key claimed for
   * `leaseMs` (`claimed`: run the work, then complete or release); 409 while another claim holds the key, 422 for
   * another request under it. Public for the writes whose work runs in another process (proxy-service's calls claim
   * through reactor-service, which holds the ledger); every other write goes through perform().
   */
  async begin(req: IdempotentRequest, leaseMs: number): Promise<{ claimed: true } | { recorded: unknown }> {
    const prior = await this.recorded(req);
    if (prior) return { recorded: prior.reply };
    if (await this.ledger.claim(req, leaseMs)) return { claimed: true };
    const winner = await this.recorded(req);
    if (winner) return { recorded: winner.reply };
    throw inProgress();
  }

  /** Records what a claimed request answered: every repeat replays it from now on. */
  complete(req: IdempotentRequest, recorded: unknown): Promise<void> {
    return this.ledger.complete(req, recorded);
  }

  /** Gives a claimed key back (the work failed): a repeat runs the request anew. */
  release(req: IdempotentRequest): Promise<void> {
    return this.ledger.release(req);
  }

  private async claimed<O, R>(
    req: IdempotentRequest,
    leaseMs: number,
    codec: ReplayCodec<O, R>,
    work: (write?: IdempotentWrite) => Promise<O>,
  ): Promise<R | IdempotentReplay<R>> {
    const begun = await this.begin(req, leaseMs);
    if ('recorded' in begun) return idempotentReplay(await codec.replay(begun.recorded));
    let outcome: O;
    try {
      outcome = await work();
    } catch (err) {
      await this.release(req).catch(() => undefined);
      throw err;
    }
    await this.complete(req, codec.record(outcome)).catch((err: Error) => this.logger.error(`recording a completed request failed: ${err.message}`));
    return codec.reply(outcome);
  }

  private async replayOf<O, R>(req: IdempotentRequest, codec: ReplayCodec<O, R>): Promise<IdempotentReplay<R> | null> {
    const recorded = await this.recorded(req);
    return recorded ? idempotentReplay(await codec.replay(recorded.reply)) : null;
  }

  /** The recorded reply, null when the request is new; 409 while a claim runs, 422 for another request. */
  private async recorded(req: IdempotentRequest): Promise<{ reply: unknown } | null> {
    const entry = await this.ledger.find(req);
    if (!entry) return null;
    if (entry.state === 'running') {
      if (entry.lockedUntil.getTime() > Date.now()) throw inProgress();
      return null;
    }
    return { reply: entry.reply };
  }
}
