// Baselines measured in the same run, at the same concurrency, so a machine's noise cancels out of the ratios:
// PostgreSQL's own INSERT and primary-key SELECT of a row shaped like a token (node `pg`, same server and database),
// and a bare Fastify handler as the HTTP floor.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { createTokenShapedTable, tokenShapedInsert, tokenShapedValues } from './token-shaped.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** A table shaped like `tokens` (lib/token-shaped.mjs) in the bench's database. */
export async function pgBaseline(pool, tenantId) {
  await createTokenShapedTable(pool, 'bench_baseline');
  const insert = tokenShapedInsert('bench_baseline', 1);
  const ids = [];
  const baseline = {
    insert: async () => {
      const id = randomUUID();
      await pool.query(insert, tokenShapedValues(tenantId, id));
      if (ids.length < 5000) ids.push(id);
    },
    select: async (_client, seq) => {
      const res = await pool.query('SELECT * FROM bench_baseline WHERE tenant_id = $1 AND id = $2', [tenantId, ids[seq % ids.length]]);
      if (res.rowCount !== 1) throw new Error('baseline row missing');
    },
    /** rows for `select` to read when no INSERT baseline has run yet (e.g. --quick's 1-client pass comes first) */
    prime: async (n = 500) => {
      while (ids.length < n) await baseline.insert();
    },
    drop: () => pool.query('DROP TABLE IF EXISTS bench_baseline'),
  };
  return baseline;
}

/** Starts the bare Fastify floor server; resolves to {url, pid, stop}. */
export async function startFloorServer() {
  const child = spawn(process.execPath, [path.join(HERE, 'floor-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', (line) => resolve(Number(line)));
    child.once('exit', (code) => reject(new Error(`floor server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM')))),
  };
}
