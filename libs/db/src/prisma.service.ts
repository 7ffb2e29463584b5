import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/prisma/client';
// The generated client is gitignored, so Nx cannot see that it needs @prisma/client at run time: say it here,
// or the package.json generated for each app's image leaves it out.
import type {} from '@prisma/client/runtime/client';
import { ambient, type Ambient } from './after-commit';
import { databasePoolSize, poolConfig } from './pool-config';
import {
  DEFAULT_CONNECTION_WAIT_MS,
  DEFAULT_TRANSACTION_TIMEOUT_MS,
  MIN_STATEMENT_BUDGET_MS,
  isStatementCancelled,
  statementBudget,
  statementCancelled,
  type TransactionOptions,
} from './transaction-options';

/** What an ambient transaction takes over: queries, model delegates and nested transactions. */
function routedToTransaction(tx: Prisma.TransactionClient, prop: string | symbol): prop is string {
  return typeof prop === 'string' && (prop === '$transaction' || prop in tx);
}

let savepoints = 0;

/**
 * Nested work joins the open transaction as a savepoint: if it fails (a unique violation the repository turns into an
 * outcome, say), only its part rolls back and the outer transaction stays usable; if the outer one rolls back, the
 * nested work goes with it.
 */
async function inSavepoint<T>(tx: Prisma.TransactionClient, work: () => Promise<T>): Promise<T> {
  const name = `coffer_nested_${++savepoints}`;
  await tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
  try {
    const out = await work();
    await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
    return out;
  } catch (err) {
    // a transaction that is already gone (timed out, connection lost) cannot roll back to the savepoint: the
    // original error is the one the caller must see, and the outer transaction fails on its own
    await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
    throw err;
  }
}

/** Prisma's own `$transaction` called inside a unit of work (a batch, or a callback given the client): a savepoint. */
function joined(tx: Prisma.TransactionClient) {
  return (arg: unknown) =>
    inSavepoint(tx, async () => {
      if (typeof arg === 'function') return (arg as (t: Prisma.TransactionClient) => Promise<unknown>)(tx);
      const results: unknown[] = [];
      for (const query of arg as Array<PromiseLike<unknown>>) results.push(await query);
      return results;
    });
}

/**
 * One Prisma client per process, on the pg driver adapter (no native engine), and the process's one unit of work.
 *
 * `transactional(work, options)` runs `work` in one database transaction that every repository joins without being
 * handed anything: while it runs, every query of the same async context made through this service (model delegates,
 * raw queries, `$transaction`) or through SqlPool (the hot-path pool) runs on the transaction's connection, so the
 * raw-SQL reads see the transaction's own uncommitted rows. A nested call joins as a savepoint. Effects queued with
 * `deferUntilCommitted` run once it committed. The tenant keyring is the one exception, on its own pool
 * (KeyringPool explains why). libs/db/README.md, "Transactions", has the rules.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  /** The client itself, never an ambient transaction. */
  readonly root: PrismaClient;

  constructor() {
    super({
      adapter: new PrismaPg(poolConfig(databasePoolSize())),
    });
    // `this` is already Prisma's own proxy (it builds model delegates lazily): keep that one as the root
    this.root = this;
    const client = this.root;
    return new Proxy(this, {
      get(target, prop) {
        const tx = ambient.getStore()?.tx;
        if (tx && routedToTransaction(tx, prop)) {
          if (prop === '$transaction') return joined(tx);
          const routed = Reflect.get(tx, prop);
          return typeof routed === 'function' ? routed.bind(tx) : routed;
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' && prop !== 'constructor' ? value.bind(client) : value;
      },
    });
  }

  /**
   * The unit of work: runs `work` in one transaction that every repository joins (see the class comment) and returns
   * its result once committed and the after-commit effects ran. A throw rolls everything back. `options` may also be
   * a number, the timeout in milliseconds (the older signature).
   */
  async transactional<T>(work: () => Promise<T>, options: TransactionOptions | number = {}): Promise<T> {
    const open = ambient.getStore();
    if (open) return inSavepoint(open.tx, work);
    const { isolation, deadline, timeoutMs = DEFAULT_TRANSACTION_TIMEOUT_MS } = typeof options === 'number' ? { timeoutMs: options } : options;
    let timeout = timeoutMs;
    let maxWait = Math.min(timeoutMs, DEFAULT_CONNECTION_WAIT_MS);
    if (deadline !== undefined) {
      const budget = statementBudget(deadline);
      if (budget < MIN_STATEMENT_BUDGET_MS) throw statementCancelled();
      timeout = Math.min(timeout, budget);
      maxWait = timeout;
    }
    const afterCommit: Ambient['afterCommit'] = [];
    let result: T;
    try {
      result = await this.root.$transaction(
        async (tx) => {
          if (deadline !== undefined) {
            const budget = statementBudget(deadline);
            if (budget < MIN_STATEMENT_BUDGET_MS) throw statementCancelled();
            // an integer we computed, never input: safe to inline (SET takes no bind parameters)
            await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${budget}`);
          }
          return ambient.run({ tx, afterCommit }, work);
        },
        { timeout, maxWait, ...(isolation ? { isolationLevel: isolation } : {}) },
      );
    } catch (err) {
      if (deadline !== undefined && isStatementCancelled(err)) throw statementCancelled();
      throw err;
    }
    for (const effect of afterCommit) await effect();
    return result;
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }

  /** readiness: the database answers */
  async ping(): Promise<boolean> {
    try {
      await this.$queryRawUnsafe('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
