#!/usr/bin/env node
// `npm run admin -- <command>`: the operator CLI against the same database as the services: DATABASE_URL when
// set; else the embedded database of a running `npm start` (recorded in .data/runtime.json); else it starts that
// embedded database itself for the duration of the command. Only the command's result goes to stdout.
import './runtime.mjs'; // first: re-executes this command on the pinned Node (docs/runtime.md)
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, RUNTIME_FILE, build, ensureInstalled, ensureKeyEncryptionKeys, migrate, startEmbeddedPostgres } from './system.mjs';

function runningStart() {
  try {
    const rt = JSON.parse(fs.readFileSync(RUNTIME_FILE, 'utf8'));
    process.kill(rt.pid, 0);
    return rt;
  } catch {
    return null;
  }
}

async function main() {
  ensureInstalled();
  build(['admin']);
  const env = { KEY_ENCRYPTION_KEYS: ensureKeyEncryptionKeys() };
  let embedded;
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  else {
    const rt = runningStart();
    if (rt) env.DATABASE_URL = rt.databaseUrl;
    else {
      embedded = await startEmbeddedPostgres();
      env.DATABASE_URL = embedded.url;
    }
  }
  try {
    await migrate(env.DATABASE_URL);
    const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/tools/admin/main.js'), ...process.argv.slice(2)], {
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    return res.status ?? 1;
  } finally {
    if (embedded) await embedded.pg.stop().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`admin: ${err.message}\n`);
    process.exit(1);
  },
);
