import { randomUUID } from 'node:crypto';
import type { ModuleMetadata, Provider, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import pg from 'pg';
import { DbModule } from '@coffer/db';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { KeyringModule } from '@coffer/crypto/keyring';
import { createTestDatabase, type TestDatabase } from './test-database';

/** Pools per process stay small: a test file runs one request at a time, and several files run side by side. */
const POOL_SIZE = '3';

export interface IntegrationContext {
  db: TestDatabase;
  module: TestingModule;
  /** a provider of the module (a use case, a repository) */
  get<T>(type: Type<T> | string | symbol): T;
  /** a plain pool on the test database, for asserting what the rows hold (never through the code under test) */
  sql: pg.Pool;
  /** the key-encryption keys the module's keyring wraps tenant keys with (a fresh one per file) */
  kek: string;
  /** closes the module and the pool, then drops the database */
  close(): Promise<void>;
}

/**
 * The medium test tier's harness (docs in CONTRIBUTING.md): a throwaway, migrated database of the file's own, and a
 * Nest testing module of `metadata` on top of the real database module and the real keyring (a generated KEK).
 * No NATS: a provider that would call another service is replaced through `overrides` by an in-process fake.
 *
 * The settings are read from the environment when the providers are built (PrismaService, SqlPool, KeyringPool), so
 * DATABASE_URL and KEY_ENCRYPTION_KEYS are set for this process first; jest runs the files of a worker one after
 * another, each with its own database.
 */
export async function startIntegration(
  metadata: Pick<ModuleMetadata, 'providers' | 'imports'>,
  overrides: Array<{ provide: Type<unknown> | string | symbol; useValue: unknown }> = [],
): Promise<IntegrationContext> {
  const db = await createTestDatabase();
  const kek = KeyEncryptionKeys.generateEntry(`int-${randomUUID().slice(0, 8)}`);
  process.env['DATABASE_URL'] = db.url;
  process.env['KEY_ENCRYPTION_KEYS'] = kek;
  process.env['DATABASE_POOL_SIZE'] ??= POOL_SIZE;
  process.env['DATABASE_KEYRING_POOL_SIZE'] ??= '1';
  let builder = Test.createTestingModule({
    imports: [DbModule, KeyringModule, ...(metadata.imports ?? [])],
    providers: (metadata.providers ?? []) as Provider[],
  });
  for (const o of overrides) builder = builder.overrideProvider(o.provide).useValue(o.useValue);
  let module: TestingModule;
  try {
    module = await builder.compile();
    await module.init();
  } catch (err) {
    await db.drop();
    throw err;
  }
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  // pool.end() resolves before its idle connections have closed; the DROP ... WITH (FORCE) that follows may end one
  // first, and an 'error' event without a listener would fail the file after all its tests passed
  sql.on('error', () => undefined);
  return {
    db,
    module,
    kek,
    sql,
    get: <T>(type: Type<T> | string | symbol) => module.get<T>(type, { strict: false }),
    close: async () => {
      await module.close();
      await sql.end();
      await db.drop();
    },
  };
}
