#!/usr/bin/env node
// Offline Prisma migrations: Prisma's own wasm schema engine with the pg driver adapter, so no native engine is
// downloaded. It reads and writes the standard prisma/migrations/<timestamp>_<name>/migration.sql folders and the
// standard _prisma_migrations table, so `prisma migrate deploy` elsewhere accepts the same history.
//
//   node tools/db/migrate.mjs deploy          apply pending migrations to DATABASE_URL (production, Kubernetes Job)
//   node tools/db/migrate.mjs dev <name>      diff schema.prisma against the history, write a new migration, apply it
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = process.env.COFFER_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCHEMA_PATH = path.join(ROOT, 'prisma/schema.prisma');
const MIGRATIONS_DIR = path.join(ROOT, 'prisma/migrations');
const FILTERS = { externalTables: [], externalEnums: [] };

// The engine's introspection returns PostgreSQL's internal "char" type (OID 18), which the adapter refuses to
// deserialize. Report it as text (OID 25) on every connection the factory hands out, without patching pg.
function reportCharAsText(queryable) {
  const performIO = queryable.performIO?.bind(queryable);
  if (performIO) {
    queryable.performIO = async (...args) => {
      const result = await performIO(...args);
      for (const field of result?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
      return result;
    };
  }
  const startTransaction = queryable.startTransaction?.bind(queryable);
  if (startTransaction) queryable.startTransaction = async (...a) => reportCharAsText(await startTransaction(...a));
  return queryable;
}

function pgFields(url) {
  // Discrete fields, not connectionString: the adapter builds the shadow connection as {...config, database},
  // and a connectionString would silently override `database`, making the main database the shadow.
  const u = new URL(url);
  const fields = {
    host: u.hostname || '127.0.0.1',
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username || 'postgres'),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || 'postgres',
  };
  // managed databases: honour sslmode from the URL (require / verify-ca / verify-full)
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode && sslmode !== 'disable') fields.ssl = { rejectUnauthorized: sslmode === 'verify-full' || sslmode === 'verify-ca' };
  return fields;
}

function readHistory() {
  fs.mkdirSync(MIGRATIONS_DIR, { recursive: true });
  const lockPath = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
  const dirs = fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return {
    baseDir: MIGRATIONS_DIR,
    shadowDbInitScript: '',
    lockfile: {
      path: 'migration_lock.toml',
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null,
    },
    migrationDirectories: dirs.map((d) => ({
      path: d,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: fs.readFileSync(path.join(MIGRATIONS_DIR, d, 'migration.sql'), 'utf8') },
      },
    })),
  };
}

let wasmLoaded;
async function loadWasm() {
  // The wasm module is instantiated once per process: a second instantiation shares the same JS glue and breaks it.
  wasmLoaded ??= (async () => {
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg').replace(/\.js$/, '.wasm');
    const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(wasmPath)), {
      './schema_engine_bg.js': bg,
    });
    bg.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start?.();
    // The engine reports Rust panics through this global; keep the message so the error says what happened.
    globalThis.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m) => (globalThis.PRISMA_WASM_LAST_PANIC = m) };
    return bg;
  })();
  return wasmLoaded;
}

async function openEngine(databaseUrl) {
  const { PrismaPg } = require('@prisma/adapter-pg');
  const { bindMigrationAwareSqlAdapterFactory } = require('@prisma/driver-adapter-utils');
  const bg = await loadWasm();
  const config = pgFields(databaseUrl);
  const factory = new PrismaPg(config);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => reportCharAsText(await connect());
  // The adapter's own shadow database is dropped while its pool is still open ("being accessed by other users"):
  // close the pool first, then drop.
  factory.connectToShadowDb = async () => {
    const admin = await factory.connect();
    const name = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
    await admin.executeScript(`CREATE DATABASE "${name}"`);
    const shadowFactory = new PrismaPg({ ...config, database: name });
    const shadow = reportCharAsText(await shadowFactory.connect());
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await admin.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.dispose();
    };
    return shadow;
  };
  const schema = { files: [{ path: SCHEMA_PATH, content: fs.readFileSync(SCHEMA_PATH, 'utf8') }] };
  const engine = await bg.SchemaEngine.new(
    { datamodels: schema.files.map((f) => [f.path, f.content]) },
    (message) => process.env.DEBUG && console.error(message),
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  return { engine, schema };
}

/** Writes a new migration folder when schema.prisma differs from the history. Returns its name or null. */
export async function createMigration(databaseUrl, name) {
  const { engine, schema } = await openEngine(databaseUrl);
  try {
    const history = readHistory();
    const from = history.migrationDirectories.length ? { tag: 'migrations', ...history } : { tag: 'empty' };
    const diff = await engine.diff({
      from,
      to: { tag: 'schemaDatamodel', ...schema },
      script: true,
      exitCode: null,
      filters: FILTERS,
    });
    const sql = diff.stdout ?? '';
    if (!sql.trim() || /empty migration/i.test(sql)) return null;
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const folder = `${stamp}_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
    fs.mkdirSync(path.join(MIGRATIONS_DIR, folder), { recursive: true });
    fs.writeFileSync(path.join(MIGRATIONS_DIR, folder, 'migration.sql'), sql);
    const lock = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
    if (!fs.existsSync(lock)) fs.writeFileSync(lock, 'provider = "postgresql"\n');
    return folder;
  } finally {
    engine.free?.();
  }
}

/** Applies pending migrations. Returns the names applied. */
export async function applyMigrations(databaseUrl) {
  const { engine } = await openEngine(databaseUrl);
  try {
    const out = await engine.applyMigrations({ migrationsList: readHistory(), filters: FILTERS });
    return out.appliedMigrationNames;
  } finally {
    engine.free?.();
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
      const panic = globalThis.PRISMA_WASM_LAST_PANIC ? ` (${globalThis.PRISMA_WASM_LAST_PANIC})` : '';
      console.error(`migration failed: ${err?.message ?? err}${panic}`);
      process.exit(1);
    },
  );
}
