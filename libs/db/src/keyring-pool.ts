import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import pg from 'pg';
import type { Prisma } from './generated/prisma/client';
import { poolConfig } from './pool-config';
import { envInt } from '@coffer/observability';

/**
 * DATABASE_KEYRING_POOL_SIZE, default 2: connections of the keyring's own pool. Key loads are rare (once per tenant
 * and purpose, then every minute for the active data key) and the keyring coalesces concurrent loads of one key, so
 * two connections serve a burst of new tenants without queueing behind each other for long.
 */
export function databaseKeyringPoolSize(): number {
  return envInt('DATABASE_KEYRING_POOL_SIZE', 2, 1, 100);
}

/**
 * The tenant keyring's own small pool. A write resolves its keys while it may already hold a connection of the main
 * pools (a transaction); were the keys loaded from those same pools, enough concurrent writes would hold every
 * connection while each waits for one more: a pool that deadlocks itself. Nothing but the keyring uses this pool
 * and a key load never waits on anything else, so it cannot be starved. It is also the one way to the database that
 * never joins the unit of work (PrismaService.transactional): the keyring caches the keys it reads and creates, and
 * a key created inside a transaction that then rolls back would stay in the cache while its row is gone.
 */
@Injectable()
export class KeyringPool implements OnModuleDestroy {
  private readonly pool = new pg.Pool(poolConfig(databaseKeyringPoolSize()));

  constructor() {
    // see SqlPool: an idle connection that dies is discarded by the pool; without a listener Node would exit
    this.pool.on('error', () => undefined);
  }

  async query<T>(sql: Prisma.Sql): Promise<T[]> {
    return (await this.pool.query({ text: sql.text, values: sql.values as unknown[] })).rows as T[];
  }

  async end(): Promise<void> {
    await this.pool.end();
  }

  async onModuleDestroy(): Promise<void> {
    await this.end();
  }
}
