// The topology floor's store (lib/skeleton.mjs): answers the edge's NATS requests as token-service answers the
// gateway's, writing with a group commit as token-service does: what arrives in one event-loop iteration is one
// statement and one commit (at most 4 at once), each reply after its commit. A create is one multi-row INSERT into a
// table shaped like `tokens`; a read is one statement that selects the rows and inserts one audit row per row found.
// No encryption, access rules, events or idempotency. Prints "ready" on stdout.
import { randomUUID } from 'node:crypto';
import { JSONCodec } from 'nats';
import pg from 'pg';
import { connectAs } from './skeleton-bus.mjs';
import { createTokenShapedTable, tokenShapedInsert, tokenShapedValues } from './token-shaped.mjs';

const TENANT = process.env.SKELETON_TENANT_ID;
const PRIMED = Number(process.env.SKELETON_PRIMED ?? 1000);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8, application_name: 'coffer-bench-skeleton' });
await createTokenShapedTable(pool, 'bench_skeleton');
await pool.query('CREATE TABLE IF NOT EXISTS bench_skeleton_audit (seq bigserial PRIMARY KEY, tenant_id uuid, token_id text, at timestamptz DEFAULT now())');

/** One multi-row INSERT of `rows` (each: id, metadata JSON text). */
const insertRows = (rows) =>
  pool.query(
    tokenShapedInsert('bench_skeleton', rows.length),
    rows.flatMap((r) => tokenShapedValues(TENANT, r.id, r.metadata)),
  );
// the rows the read scenario asks for: sk-0 … sk-<PRIMED - 1>
for (let i = 0; i < PRIMED; i += 500)
  await insertRows(Array.from({ length: Math.min(500, PRIMED - i) }, (_, j) => ({ id: `sk-${i + j}`, metadata: '{"customer":"c-1"}' })));

/** The group commit: the requests of one event-loop iteration in one statement, at most 4 statements at once. */
function groupCommit(write) {
  const queue = [];
  let scheduled = false;
  let running = 0;
  const pump = () => {
    scheduled = false;
    while (queue.length && running < 4) {
      const batch = queue.splice(0, 200);
      running++;
      write(batch)
        .catch((err) => batch.forEach((w) => w.reply({ status: 500, body: { title: String(err.message) } })))
        .finally(() => {
          running--;
          pump();
        });
    }
  };
  return (item) => {
    queue.push(item);
    if (!scheduled) {
      scheduled = true;
      setImmediate(pump);
    }
  };
}

const createOne = groupCommit(async (batch) => {
  await insertRows(batch.map((w) => ({ id: w.id, metadata: JSON.stringify(w.body?.metadata ?? {}) })));
  for (const w of batch) w.reply({ status: 201, body: { id: w.id, tenant_id: TENANT, type: 'card_number', created_at: new Date().toISOString() } });
});
const readOne = groupCommit(async (batch) => {
  const { rows } = await pool.query(
    `WITH found AS (SELECT * FROM bench_skeleton WHERE tenant_id = $1 AND id = ANY ($2::text[])),
       audited AS (INSERT INTO bench_skeleton_audit (tenant_id, token_id) SELECT tenant_id, id FROM found)
     SELECT id, tenant_id, type, fingerprint, container, metadata, created_at FROM found`,
    [TENANT, batch.map((w) => w.id)],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const w of batch) {
    const row = byId.get(w.id);
    w.reply(row ? { status: 200, body: { ...row, data: 'XXXXXXXXXXXX4242' } } : { status: 404, body: { title: 'Not Found' } });
  }
});

const nc = await connectAs('_INBOX.token-service');
const json = JSONCodec();
const serve = (subject, handle) => {
  const sub = nc.subscribe(subject, { queue: 'skeleton' });
  (async () => {
    for await (const msg of sub) handle(json.decode(msg.data), (answer) => msg.respond(json.encode(answer)));
  })();
};
serve('token.skeleton.create', (body, reply) => createOne({ id: randomUUID(), body, reply }));
serve('token.skeleton.read', ({ id }, reply) => readOne({ id, reply }));
/** A coalesced message (an array of requests): each request joins the group commit, one reply for all, in order. */
const serveMany = (subject, one) =>
  serve(subject, (payloads, reply) => {
    const answers = [];
    let left = payloads.length;
    payloads.forEach((payload, i) =>
      one(payload, (answer) => {
        answers[i] = answer;
        if (--left === 0) reply(answers);
      }),
    );
  });
serveMany('token.skeleton.create-many', (body, reply) => createOne({ id: randomUUID(), body, reply }));
serveMany('token.skeleton.read-many', ({ id }, reply) => readOne({ id, reply }));
await nc.flush();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await nc.drain().catch(() => undefined);
  await pool.query('DROP TABLE IF EXISTS bench_skeleton, bench_skeleton_audit').catch(() => undefined);
  await pool.end();
  process.exit(0);
});
