import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/prisma/client';
// The generated client is gitignored, so Nx cannot see that it needs @prisma/client at run time: say it here,
// or the package.json generated for each app's image leaves it out.
import type {} from '@prisma/client/runtime/client';
import { ambient, type Ambient } from './after-commit';
import { databasePoolSize, poolConfig } from './pool-config';

/**
 * The ambient transaction of `PrismaService.transactional`, if this async context runs inside one. Code that reads
 * through another pool (SqlPool) uses it to join the write it belongs to: another connection cannot see the
 * transaction's own uncommitted rows.
 */
export function ambientTransaction(): Prisma.TransactionClient | undefined {
  return ambient.getStore()?.tx;
}

/** What an ambient transaction takes over: queries, model delegates and nested transactions. */
function routedToTransaction(tx: Prisma.TransactionClient, prop: string | symbol): prop is string {
  return typeof prop === 'string' && (prop === '$transaction' || prop in tx);
}

let savepoints = 0;

/**
 * `$transaction` inside an ambient transaction joins it as a savepoint: if the nested work fails (a unique violation
 * the repository turns into an outcome, say), only its part rolls back and the ambient transaction stays usable.
 */
function joined(tx: Prisma.TransactionClient) {
  return async (arg: unknown) => {
    const name = `coffer_nested_${++savepoints}`;
    await tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
    try {
      let out: unknown;
      if (typeof arg === 'function') out = await (arg as (t: Prisma.TransactionClient) => Promise<unknown>)(tx);
      else {
        const results: unknown[] = [];
        for (const query of arg as Array<PromiseLike<unknown>>) results.push(await query);
        out = results;
      }
      await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
      return out;
    } catch (err) {
      await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`);
      throw err;
    }
  };
}

/**
 * One Prisma client per process, on the pg driver adapter (no native engine).
 *
 * `transactional(work)` runs `work` in one database transaction without threading a transaction client through every
 * repository: while it runs, every query made through this service (from the same async context) joins that
 * transaction. It exists so an idempotency record commits with the write it describes (libs/idempotency), whatever
 * repositories the write uses. Code that must never join a caller's transaction (the keyring caches keys it
 * creates, a rollback would leave the cache pointing at a key that does not exist) uses `root`.
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

  /** Runs `work` in one transaction that every query through this service joins (see the class comment). */
  async transactional<T>(work: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
    if (ambient.getStore()) return work();
    const afterCommit: Ambient['afterCommit'] = [];
    const result = await this.$transaction((tx) => ambient.run({ tx, afterCommit }, work), { timeout: timeoutMs, maxWait: timeoutMs });
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
