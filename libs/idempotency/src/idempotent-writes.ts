import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { idempotentReplay, type IdempotentReplay, type RpcEnvelope } from '@coffer/contracts';
import { PrismaService } from '@coffer/db';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { IdempotencyLedger, inProgress } from './idempotency-ledger';
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

/** Thrown inside the write's transaction when another request recorded the key first: rolls the write back. */
class KeyTakenMeanwhile extends Error {}

const SWEEP_INTERVAL_MS = 3600_000;

/** The reply is recorded as it is and replayed as it was. */
const PLAIN: ReplayCodec<unknown, unknown> = { reply: (o) => o, record: (o) => o, replay: async (r) => r };

/**
 * SVC-IDEMPOTENCY-KEY in the service that owns the write (docs/api-reference.md). The key is recorded in the same
 * transaction as the write, so whatever happens to the reply (a timeout at the gateway, a dropped connection, a
 * crash after the commit), a retry finds the record and gets the recorded reply instead of a second write.
 *
 * - `run`: for writes that are database transactions. A repeat of a completed request gets its reply back; a
 *   repeat racing the first waits for the first to commit (PostgreSQL's unique index) and then gets its reply.
 * - `runExclusive`: for a long-running request with effects outside the database (a synchronous react): the key is
 *   claimed first, a repeat while it runs gets 409, a failure releases the key.
 * - `lookup` / `record`: the two halves, for services that manage their own transactions (token-service) and
 *   re-render the reply for the caller's current access.
 */
@Injectable()
export class IdempotentWrites implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  readonly ledger: IdempotencyLedger;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaService,
    keyring: TenantKeyring,
  ) {
    this.ledger = new IdempotencyLedger(prisma, keyring);
  }

  onModuleInit(): void {
    this.sweeper = setInterval(() => void this.ledger.sweep().catch(() => undefined), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  request(route: string, env: RpcEnvelope<unknown>): IdempotentRequest | undefined {
    return idempotentRequestOf(route, env);
  }

  /** `work` runs in one transaction with the record of its reply; see the class comment. */
  async run<T>(route: string, env: RpcEnvelope<unknown>, work: () => Promise<T>): Promise<T | IdempotentReplay<T>> {
    const req = this.request(route, env);
    if (!req) return work();
    const prior = await this.lookup<T>(req);
    if (prior) return prior;
    try {
      return await this.prisma.transactional(async () => {
        const reply = await work();
        if (!(await this.ledger.record(req, reply))) throw new KeyTakenMeanwhile();
        return reply;
      });
    } catch (err) {
      if (!(err instanceof KeyTakenMeanwhile)) throw err;
      const winner = await this.lookup<T>(req);
      if (!winner) throw inProgress();
      return winner;
    }
  }

  /** `work` runs once per key while it holds a claim of `leaseMs`; see the class comment. */
  runExclusive<T>(route: string, env: RpcEnvelope<unknown>, leaseMs: number, work: () => Promise<T>): Promise<T | IdempotentReplay<T>>;
  /** The same, with the outcome recorded and rendered again for each repeat by `codec`. */
  runExclusive<O, R>(
    route: string,
    env: RpcEnvelope<unknown>,
    leaseMs: number,
    work: () => Promise<O>,
    codec: ReplayCodec<O, R>,
  ): Promise<R | IdempotentReplay<R>>;
  async runExclusive<O, R>(
    route: string,
    env: RpcEnvelope<unknown>,
    leaseMs: number,
    work: () => Promise<O>,
    codec: ReplayCodec<O, R> = PLAIN as unknown as ReplayCodec<O, R>,
  ): Promise<R | IdempotentReplay<R>> {
    const req = this.request(route, env);
    if (!req) return codec.reply(await work());
    const prior = await this.replayOf(req, codec);
    if (prior) return prior;
    if (!(await this.ledger.claim(req, leaseMs))) {
      const winner = await this.replayOf(req, codec);
      if (winner) return winner;
      throw inProgress();
    }
    let outcome: O;
    try {
      outcome = await work();
    } catch (err) {
      await this.ledger.release(req).catch(() => undefined);
      throw err;
    }
    await this.ledger.complete(req, codec.record(outcome)).catch((err: Error) => this.logger.error(`recording a completed request failed: ${err.message}`));
    return codec.reply(outcome);
  }

  private async replayOf<O, R>(req: IdempotentRequest, codec: ReplayCodec<O, R>): Promise<IdempotentReplay<R> | null> {
    const recorded = await this.recorded(req);
    return recorded ? idempotentReplay(await codec.replay(recorded.reply)) : null;
  }

  /** The recorded reply as a replay, null when the request is new; 409 while a claim runs, 422 for another request. */
  async lookup<T>(req: IdempotentRequest): Promise<IdempotentReplay<T> | null> {
    const recorded = await this.recorded(req);
    return recorded ? idempotentReplay(recorded.reply as T) : null;
  }

  /** The recorded reply itself (for services that re-render it), null when the request is new. */
  async recorded(req: IdempotentRequest): Promise<{ reply: unknown } | null> {
    const entry = await this.ledger.find(req);
    if (!entry) return null;
    if (entry.state === 'running') {
      if (entry.lockedUntil.getTime() > Date.now()) throw inProgress();
      return null;
    }
    return { reply: entry.reply };
  }
}
