import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** The repository root (libs/testing/src/integration → four levels up). */
export const REPO_ROOT = path.resolve(__dirname, '../../../..');
const MIGRATIONS_DIR = path.join(REPO_ROOT, 'prisma/migrations');

/**
 * The server the medium tier uses: TEST_DATABASE_URL, the one variable every test tier reads (the e2e harness, the
 * libraries' PostgreSQL specs, tools/db's migration test), else the local server with trust auth. Not DATABASE_URL:
 * that names the services' own database, and this process sets it to each file's database. Only the server's host,
 * port and credentials matter: each test file gets its own database on it.
 */
export function serverUrl(): string {
  return process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

function urlOf(database: string, server = serverUrl()): string {
  const u = new URL(server);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A short digest of the migration history: a template is reused only while the history is the same. */
function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const dir of fs.readdirSync(MIGRATIONS_DIR).sort()) {
    const file = path.join(MIGRATIONS_DIR, dir, 'migration.sql');
    if (fs.existsSync(file)) hash.update(dir).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Serialises template builds across every jest worker and project on the machine. */
const TEMPLATE_LOCK = 0x636f6666; // "coff"

/**
 * The migrated template of the current migration history, built once (by `node tools/db/migrate.mjs deploy`, the same
 * entry point the e2e harness and the Kubernetes Job use) and then copied per test file: a copy takes ~100 ms where
 * applying the migrations takes seconds. `datistemplate` marks a template whose migration finished; one left
 * half-built by a killed run is dropped and built again.
 */
async function ensureTemplate(): Promise<string> {
  const name = `coffer_int_tpl_${migrationsDigest()}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const found = await admin.query<{ datistemplate: boolean }>('SELECT datistemplate FROM pg_database WHERE datname = $1', [name]);
      if (found.rows[0]?.datistemplate) return;
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}"`);
      // a child process: its connections are closed when it exits, and a template must have none to be copied
      const migrate = spawnSync(process.execPath, [path.join(REPO_ROOT, 'tools/db/migrate.mjs'), 'deploy'], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: urlOf(name) },
        encoding: 'utf8',
      });
      if (migrate.status !== 0) {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        throw new Error(`migrating the test template failed: ${migrate.stderr || migrate.stdout}`);
      }
      await admin.query(`ALTER DATABASE "${name}" IS_TEMPLATE true`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return name;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Databases of test processes that died before their afterAll (a killed run): their pid is in the name. */
async function dropOrphans(admin: pg.Client): Promise<void> {
  const rows = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'coffer\\_int\\_p%'`);
  for (const { datname } of rows.rows) {
    const pid = Number(/^coffer_int_p(\d+)_/.exec(datname)?.[1]);
    if (pid && !alive(pid)) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
  }
}

export interface TestDatabase {
  name: string;
  /** a connection URL for the services' pools (DATABASE_URL) and for assertions */
  url: string;
  /** drops the database, closing any connection still open */
  drop(): Promise<void>;
}

/** A fresh, fully migrated database of its own, for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const name = `coffer_int_p${process.pid}_${randomBytes(5).toString('hex')}`;
  await withAdmin(async (admin) => {
    await dropOrphans(admin);
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  });
  return {
    name,
    url: urlOf(name),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
