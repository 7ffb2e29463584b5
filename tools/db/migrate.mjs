#!/usr/bin/env node
// Applies the migration history in prisma/migrations to DATABASE_URL with nothing but the `pg` driver, keeping the
// standard `_prisma_migrations` table exactly as `prisma migrate deploy` does (docs/operations.md, "Upgrades"), so
// either tool can take over from the other. Used by `npm start`, `npm test`, the images' migration Job.
//
//   node tools/db/migrate.mjs deploy          apply pending migrations to DATABASE_URL (production, Kubernetes Job)
//   node tools/db/migrate.mjs dev <name>      developer only: write a new migration from schema.prisma, then deploy
//                                             (tools/db/migrate-dev.mjs)
//
// What Prisma's schema engine does on `migrate deploy` for PostgreSQL, and this file with it: a session advisory
// lock (key 72707369, given up after 10 s); the table created when missing, but only in an empty schema (P3005);
// refusal while any recorded migration has failed (P3009); for each folder not yet recorded (by name, rolled-back
// rows ignored), in name order: a row {id: uuid v4, checksum: sha256 hex of migration.sql, migration_name,
// started_at}, the script, then applied_steps_count = 1 and finished_at. A failing script leaves its row with the
// error in `logs` and no finished_at, as Prisma does. Unlike Prisma, a script and its row commit in one transaction,
// so a crash never leaves a half-applied migration recorded as started.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = process.env.COFFER_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MIGRATIONS_DIR = path.join(ROOT, 'prisma/migrations');
/** Prisma Migrate's advisory lock key: holding it keeps `prisma migrate deploy` and this tool from running together. */
const PRISMA_MIGRATE_LOCK = 72707369;
const LOCK_TIMEOUT_MS = 10_000;

/** The migration folders, in the order Prisma applies them (by name, i.e. by timestamp), with their scripts. */
export function readMigrations(dir = MIGRATIONS_DIR) {
  const lock = path.join(dir, 'migration_lock.toml');
  if (fs.existsSync(lock)) {
    const provider = /provider\s*=\s*"([^"]+)"/.exec(fs.readFileSync(lock, 'utf8'))?.[1];
    if (provider && provider !== 'postgresql') throw new Error(`${lock} names provider "${provider}"; this tool applies PostgreSQL migrations`);
  }
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const script = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, script, checksum: createHash('sha256').update(script, 'utf8').digest('hex') };
    });
}

/** pg options from a postgres:// URL; `sslmode` (require / verify-ca / verify-full) as managed databases give it. */
export function pgOptions(url) {
  const u = new URL(url);
  const sslmode = u.searchParams.get('sslmode');
  u.searchParams.delete('sslmode');
  const options = { connectionString: u.toString() };
  if (sslmode && sslmode !== 'disable') options.ssl = { rejectUnauthorized: sslmode === 'verify-full' || sslmode === 'verify-ca' };
  return options;
}

async function acquireLock(client) {
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [PRISMA_MIGRATE_LOCK]);
    if (rows[0].locked) return;
    if (Date.now() > deadline)
      throw new Error(`another migration holds the migration lock (advisory lock ${PRISMA_MIGRATE_LOCK}) for more than ${LOCK_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The table as Prisma's schema engine creates it for PostgreSQL (same columns, types and defaults). */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

async function ensureMigrationsTable(client) {
  const { rows } = await client.query(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = current_schema()`,
  );
  const tables = rows.map((r) => r.relname);
  if (tables.includes('_prisma_migrations')) return;
  if (tables.length) {
    throw new Error(
      `P3005: the database schema is not empty (${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', …' : ''}) and has no migration history: baseline it first`,
    );
  }
  await client.query(CREATE_MIGRATIONS_TABLE);
}

/** Applies pending migrations to `databaseUrl`. Returns the names applied. */
export async function applyMigrations(databaseUrl, { dir = MIGRATIONS_DIR } = {}) {
  const migrations = readMigrations(dir);
  const client = new pg.Client(pgOptions(databaseUrl));
  await client.connect();
  try {
    await acquireLock(client);
    await ensureMigrationsTable(client);
    const { rows: recorded } = await client.query(
      'SELECT migration_name, started_at, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY started_at',
    );
    const failed = recorded.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length) {
      const details = failed.map(
        (r) => `the \`${r.migration_name}\` migration started at ${r.started_at.toISOString()} failed${r.logs?.trim() ? `: ${r.logs.trim()}` : ''}`,
      );
      throw new Error(
        `P3009: found failed migrations in the target database; new migrations will not be applied (resolve them with \`prisma migrate resolve\`): ${details.join('; ')}`,
      );
    }
    const applied = new Set(recorded.filter((r) => r.rolled_back_at === null).map((r) => r.migration_name));
    const names = [];
    for (const m of migrations.filter((x) => !applied.has(x.name))) {
      const id = randomUUID();
      try {
        await client.query('BEGIN');
        await client.query('INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES ($1, $2, clock_timestamp(), $3)', [
          id,
          m.checksum,
          m.name,
        ]);
        // no parameters: the simple query protocol, which runs a script of many statements as Prisma's engine does
        await client.query(m.script);
        await client.query('UPDATE _prisma_migrations SET applied_steps_count = applied_steps_count + 1, finished_at = clock_timestamp() WHERE id = $1', [id]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        const logs = `${m.name}: ${err.message}${err.code ? ` (SQLSTATE ${err.code}${err.position ? `, position ${err.position}` : ''})` : ''}`;
        await client
          .query('INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name, logs) VALUES ($1, $2, clock_timestamp(), $3, $4)', [
            id,
            m.checksum,
            m.name,
            logs,
          ])
          .catch(() => undefined);
        throw new Error(`migration ${m.name} failed: ${err.message}`);
      }
      names.push(m.name);
    }
    return names;
  } finally {
    // ending the session releases the advisory lock
    await client.end().catch(() => undefined);
  }
}

async function main() {
  const [command = 'deploy', name = 'change'] = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is required (postgres://user:password@host:port/database)');
    process.exit(2);
  }
  if (command === 'dev') {
    const { createMigration } = await import('./migrate-dev.mjs');
    const created = await createMigration(url, name);
    console.error(created ? `created prisma/migrations/${created}` : 'no schema changes');
  } else if (command !== 'deploy') {
    console.error(`unknown command "${command}": use deploy or dev <name>`);
    process.exit(2);
  }
  const applied = await applyMigrations(url);
  console.error(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(`migration failed: ${err?.message ?? err}`);
      process.exit(1);
    },
  );
}
