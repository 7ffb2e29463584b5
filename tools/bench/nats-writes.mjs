// How much the batching of NATS writes saves, isolated from the rest of the system: a requester (like the gateway's
// RpcClient) and a responder process (like a service) over a private nats-server, each request and reply sent from
// its own I/O callback as in the real services (an HTTP request, a database reply). Two ways of sending, alternated
// round by round:
//
//   direct  publish / msg.respond at once: nats.js writes in a microtask after each one, so about one write per message
//   batch   what libs/bus does (PublishBatch): sends queued during an event-loop iteration, published together
//           at its end (setImmediate), on nats.js's public API only
//
// (The build before issue 23 coalesced by patching nats.js's private protocol.flushPending; compare against it with
// the whole system: npm run bench -- --no-build on that build's dist/, see docs/nats.md.)
//
// Reports requests per second and CPU µs per request of the requester, the responder and nats-server (from /proc).
//
//   node tools/bench/nats-writes.mjs [--seconds 5] [--clients 32] [--rounds 3]
import { spawn, fork } from 'node:child_process';
import net from 'node:net';
import { connect } from 'nats';
import { cpuSeconds } from './lib/cpu.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const MODES = ['direct', 'batch'];

/** A way of sending: `send(fn)` runs fn (a publish or respond) now or batched. */
function sender(mode) {
  if (mode !== 'batch') return (fn) => fn();
  let queue = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const q = queue;
    queue = [];
    for (const fn of q) fn();
  };
  return (fn) => {
    queue.push(fn);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

async function responder(mode, url) {
  const nc = await connect({ servers: url, noAsyncTraces: true });
  const send = sender(mode);
  const reply = new TextEncoder().encode(JSON.stringify({ ok: { id: 'tok_'.padEnd(40, 'x'), data: 'XXXX-XXXX-XXXX-4242', metadata: { customer: 'c-7' } } }));
  nc.subscribe('bench.rpc', {
    queue: 'bench',
    callback: (_err, msg) => {
      // a service's handler: a few promise hops, and its reply comes from another I/O callback (its database's)
      void (async () => {
        await null;
        JSON.parse(new TextDecoder().decode(msg.data));
        await new Promise((r) => setImmediate(r));
        send(() => msg.respond(reply));
      })();
    },
  });
  await nc.flush();
  process.send?.('ready');
}

async function round(mode, url, clients, seconds, responderPid) {
  const nc = await connect({ servers: url, noAsyncTraces: true });
  const send = sender(mode);
  const pending = new Map();
  let seq = 0;
  nc.subscribe('_INBOX.bench.*', {
    callback: (_e, msg) => {
      const token = msg.subject.slice('_INBOX.bench.'.length);
      const p = pending.get(token);
      pending.delete(token);
      p?.(msg);
    },
  });
  await nc.flush();
  const body = new TextEncoder().encode(
    JSON.stringify({ traceId: 'x'.repeat(36), principal: { tenantId: 't'.repeat(36), applicationId: 'a'.repeat(36) }, body: { id: 'tok' }, timeoutMs: 5000 }),
  );
  const request = () =>
    new Promise((resolve) => {
      const token = (++seq).toString(36);
      pending.set(token, resolve);
      send(() => nc.publish('bench.rpc', body, { reply: `_INBOX.bench.${token}` }));
    });
  let done = 0;
  let stop = false;
  const loop = async () => {
    while (!stop) {
      await request();
      // the next HTTP request of this client arrives in its own I/O callback, as the gateway's do
      await new Promise((r) => setImmediate(r));
      done++;
    }
  };
  // warm-up, then measure
  const loops = Array.from({ length: clients }, loop);
  await new Promise((r) => setTimeout(r, 500));
  const natsPid = Number(process.env.BENCH_NATS_PID);
  const before = { n: done, me: process.cpuUsage(), res: cpuSeconds(responderPid), nats: cpuSeconds(natsPid), t: performance.now() };
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const n = done - before.n;
  const ms = performance.now() - before.t;
  const me = process.cpuUsage(before.me);
  const result = {
    mode,
    rps: Math.round((n * 1000) / ms),
    requester: (me.user + me.system) / n,
    responder: ((cpuSeconds(responderPid) - before.res) * 1e6) / n,
    nats: ((cpuSeconds(natsPid) - before.nats) * 1e6) / n,
  };
  stop = true;
  await Promise.all(loops);
  await nc.close();
  return result;
}

async function freePort() {
  const srv = net.createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

async function main() {
  if (process.argv[2] === '--responder') return responder(process.argv[3], process.argv[4]);
  const seconds = Number(arg('seconds', 5));
  const clients = Number(arg('clients', 32));
  const rounds = Number(arg('rounds', 3));
  const port = await freePort();
  const nats = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  process.env.BENCH_NATS_PID = String(nats.pid);
  const url = `nats://127.0.0.1:${port}`;
  await new Promise((r) => setTimeout(r, 500));
  const results = [];
  try {
    for (let i = 0; i < rounds; i++) {
      for (const mode of MODES) {
        const child = fork(new URL(import.meta.url).pathname, ['--responder', mode, url]);
        await new Promise((r) => child.once('message', r));
        const r = await round(mode, url, clients, seconds, child.pid);
        results.push(r);
        console.log(
          `round ${i + 1} ${mode.padEnd(6)} ${String(r.rps).padStart(7)} req/s  CPU µs/req: requester ${r.requester.toFixed(1)}, responder ${r.responder.toFixed(1)}, nats ${r.nats.toFixed(1)}`,
        );
        child.kill();
      }
    }
  } finally {
    nats.kill();
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log('\nmedian over rounds (ratio to direct):');
  const base = {};
  for (const mode of MODES) {
    const rs = results.filter((r) => r.mode === mode);
    const m = { rps: median(rs.map((r) => r.rps)), cpu: median(rs.map((r) => r.requester + r.responder + r.nats)) };
    base[mode] = m;
    const ratio = (k) => (m[k] / base.direct[k]).toFixed(2);
    console.log(`${mode.padEnd(6)} ${String(m.rps).padStart(7)} req/s (${ratio('rps')})  CPU ${m.cpu.toFixed(1)} µs/req all three (${ratio('cpu')})`);
  }
}

await main();
