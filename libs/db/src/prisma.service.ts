import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';
// The generated client is gitignored, so Nx cannot see that it needs @prisma/client at run time: say it here,
// or the package.json generated for each app's image leaves it out.
import type {} from '@prisma/client/runtime/client';

export function databaseUrl(): string {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is not set (postgres://user:password@host:port/database)');
  return url;
}

/** One Prisma client per process, on the pg driver adapter (no native engine). */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor() {
    super({
      adapter: new PrismaPg({
        connectionString: databaseUrl(),
        max: Number(process.env['DATABASE_POOL_SIZE'] ?? 10),
      }),
    });
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
