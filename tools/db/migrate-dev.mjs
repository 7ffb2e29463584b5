// Developer only (`npm run migrate:dev -- <name>`): writes prisma/migrations/<timestamp>_<name>/migration.sql from
// the difference between the migration history and prisma/schema.prisma. Production never runs this file: deploying
// is tools/db/migrate.mjs, which needs only `pg`.
//
// Where the Prisma CLI can fetch its native schema engine, `prisma migrate diff --from-migrations prisma/migrations
// --to-schema prisma/schema.prisma --script` does the same. Prisma 7's CLI has no offline mode (its config takes no
// driver adapter), so this runs Prisma's own wasm schema engine through its public package entry (which Node 24
// loads as a WebAssembly ES module) with the `@prisma/adapter-pg` driver adapter, behind a factory of the adapter
// interface the engine takes (docs/operations.md, "Upgrades").
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const require = createRequire(import.meta.url);
const ROOT = process.env.COFFER_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCHEMA_PATH = path.join(ROOT, 'prisma/schema.prisma');
const MIGRATIONS_DIR = path.join(ROOT, 'prisma/migrations');
const FILTERS = { externalTables: [], externalEnums: [] };

/**
 * The engine's introspection selects catalog columns of PostgreSQL's internal "char" type (OID 18), which the adapter
 * refuses to map. They hold single ASCII letters: report them as text (OID 25). A pg.Client subclass handed to the
 * pool through its documented `Client` option.
 */
class CharAsTextClient extends pg.Client {
  query(...args) {
    const charAsText = (res) => {
      for (const field of res?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
      return res;
    };
    // pg.Pool#query calls its client with a callback; the adapter's transactions await a promise
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (err, res) => callback(err, err ? res : charAsText(res));
      return super.query(...args);
    }
    const result = super.query(...args);
    return result && typeof result.then === 'function' ? result.then(charAsText) : result;
  }
}

function pgFields(url) {
  const u = new URL(url);
  const fields = {
    host: u.hostname || '127.0.0.1',
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username || 'postgres'),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || 'postgres',
  };
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode && sslmode !== 'disable') fields.ssl = { rejectUnauthorized: sslmode === 'verify-full' || sslmode === 'verify-ca' };
  return fields;
}

/** The engine's adapter factory: the main database, and a throwaway shadow database dropped once its pool is closed. */
function adapterFactory(config) {
  const { PrismaPg } = require('@prisma/adapter-pg');
  const connectTo = (database) => new PrismaPg(new pg.Pool({ ...config, database, Client: CharAsTextClient }), { disposeExternalPool: true }).connect();
  return {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    connect: () => connectTo(config.database),
    async connectToShadowDb() {
      const name = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client(config);
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const shadow = await connectTo(name);
      // a view of the adapter whose dispose also drops the database (after its pool is closed: a database in use
      // cannot be dropped)
      return new Proxy(shadow, {
        get(target, prop) {
          if (prop === 'dispose') {
            return async () => {
              try {
                await target.dispose();
                await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
              } finally {
                await admin.end();
              }
            };
          }
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  };
}

function migrationsList() {
  const lockPath = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
  const dirs = fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return {
    baseDir: MIGRATIONS_DIR,
    shadowDbInitScript: '',
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null },
    migrationDirectories: dirs.map((d) => ({
      path: d,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: fs.readFileSync(path.join(MIGRATIONS_DIR, d, 'migration.sql'), 'utf8') } },
    })),
  };
}

/** Writes a new migration folder when schema.prisma differs from the history. Returns its name, or null. */
export async function createMigration(databaseUrl, name) {
  const { SchemaEngine } = await import('@prisma/schema-engine-wasm');
  const { bindMigrationAwareSqlAdapterFactory } = require('@prisma/driver-adapter-utils');
  fs.mkdirSync(MIGRATIONS_DIR, { recursive: true });
  const schema = fs.readFileSync(SCHEMA_PATH, 'utf8');
  const engine = await SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schema]] },
    (message) => process.env.DEBUG && console.error(message),
    bindMigrationAwareSqlAdapterFactory(adapterFactory(pgFields(databaseUrl))),
  );
  try {
    const history = migrationsList();
    const diff = await engine.diff({
      from: history.migrationDirectories.length ? { tag: 'migrations', ...history } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: FILTERS,
    });
    const sql = diff.stdout ?? '';
    if (!sql.trim() || /empty migration/i.test(sql)) return null;
    const folder = `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
    fs.mkdirSync(path.join(MIGRATIONS_DIR, folder), { recursive: true });
    fs.writeFileSync(path.join(MIGRATIONS_DIR, folder, 'migration.sql'), sql);
    const lock = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
    if (!fs.existsSync(lock)) fs.writeFileSync(lock, 'provider = "postgresql"\n');
    return folder;
  } finally {
    engine.free?.();
  }
}
