// The faults, one scenario each, injected while the background load runs. A scenario returns how many faults it
// injected and may record its own assertions through `ctx.check(name, ok, figure)`.
import { randomUUID } from 'node:crypto';
import { SERVICE_NAMES } from './fault-system.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Seconds a fault lasts and the pause after it, in the full run and in the bounded CI run. */
function timings(ci) {
  return ci ? { outage: 1_500, settle: 1_500, slow: 4_000, lostReplyRounds: 2 } : { outage: 3_000, settle: 3_000, slow: 8_000, lostReplyRounds: 5 };
}

/** After PostgreSQL or NATS come back, the services must become ready again by themselves (nothing restarted). */
async function expectReconnect(ctx, what) {
  try {
    const ms = await ctx.sys.waitAllReady(60_000);
    ctx.check(`services reconnect by themselves after ${what}`, true, `all ready ${ms} ms after the fault ended`);
  } catch (err) {
    ctx.check(`services reconnect by themselves after ${what}`, false, `after 60 s: ${err.message}`);
  }
}

/**
 * kill -9 of a service (or, with its own `kill` and `restart`, of a dependency), restarted after the outage. `reconnect`
 * names the restart the services must then recover from by themselves (expectReconnect).
 */
function killAndRestart(name, t, { kill = (sys) => sys.kill(name), restart = (sys) => sys.restart(name), reconnect } = {}) {
  return {
    name: `kill -9 ${name}`,
    async run(ctx) {
      await kill(ctx.sys);
      await sleep(t.outage);
      await restart(ctx.sys);
      if (reconnect) await expectReconnect(ctx, reconnect);
      await sleep(t.settle);
      return { faults: 1 };
    },
  };
}

function latency(proxyName, ms, t) {
  return {
    name: `+${ms} ms latency to ${proxyName}`,
    async run(ctx) {
      const proxy = ctx.sys[`${proxyName === 'postgresql' ? 'pg' : 'nats'}Proxy`];
      proxy.latencyMs = ms;
      await sleep(t.slow);
      proxy.latencyMs = 0;
      await sleep(t.settle);
      return { faults: 1 };
    },
  };
}

function droppedConnections(proxyName, t) {
  return {
    name: `dropped connections to ${proxyName}`,
    async run(ctx) {
      const proxy = ctx.sys[`${proxyName === 'postgresql' ? 'pg' : 'nats'}Proxy`];
      let faults = 0;
      for (let i = 0; i < 3; i++) {
        proxy.dropAll();
        faults++;
        await sleep(t.slow / 3);
      }
      await expectReconnect(ctx, `dropped ${proxyName} connections`);
      await sleep(t.settle);
      return { faults };
    },
  };
}

/**
 * A lost reply: token-service is paused (SIGSTOP) so the create reaches it but its answer cannot arrive before the
 * deadline (504); it is resumed (SIGCONT) and completes the write; the client retries with the same key. A correct
 * system answers the retry with the token of the first attempt, and exactly one token carries the key.
 */
function lostReply(t) {
  return {
    name: 'lost reply (paused token-service)',
    async run(ctx) {
      const rounds = [];
      for (let round = 0; round < t.lostReplyRounds; round++) {
        const k = randomUUID();
        const body = ctx.load.tokenBody(k);
        const write = { kind: 'token', key: k, data: body, attempts: 0, phase: ctx.recorder.phase };
        ctx.recorder.writes.set(k, write);
        // the API key's principal is cached by the gateway now, so the pause can only delay the create itself
        await ctx.client.send('GET', '/tokens?size=1', { key: ctx.key });
        ctx.sys.pause('token-service');
        let first;
        try {
          first = await ctx.load.attempt('token', k, '/tokens', body);
        } finally {
          ctx.sys.resume('token-service');
        }
        await sleep(1_000); // the paused service finishes the write it had received
        const retry = await ctx.load.attempt('token', k, '/tokens', body);
        write.attempts = 2;
        write.status = retry.status;
        if (retry.status === 201) Object.assign(write, { id: retry.body?.id, acknowledgedAt: Date.now() });
        const listed = await ctx.client.send('GET', `/tokens?metadata.fault_key=${k}&size=100`, { key: ctx.key });
        const tokens = listed.body?.pagination?.total_items ?? listed.body?.data?.length;
        rounds.push({
          first: first.status,
          firstDetail: first.body?.detail,
          firstMs: Math.round(first.ms),
          retry: retry.status,
          retryId: retry.body?.id,
          tokens,
        });
      }
      const timedOut = rounds.filter((r) => r.first === 504 && /token-service/.test(r.firstDetail ?? '')).length;
      const exactlyOne = rounds.filter((r) => r.retry === 201 && r.tokens === 1).length;
      ctx.check(
        'lost reply: the first attempt is a 504 at the token-service deadline',
        timedOut === rounds.length,
        `${timedOut} of ${rounds.length} rounds 504 (${rounds.map((r) => `${r.first} in ${r.firstMs} ms`).join(', ')})`,
      );
      ctx.check(
        'lost reply: a retry with the same key returns the first token, exactly one exists',
        exactlyOne === rounds.length,
        `${exactlyOne} of ${rounds.length} rounds with exactly one token (tokens per key: ${rounds.map((r) => r.tokens).join(', ')})`,
      );
      ctx.lostReplyRounds = rounds;
      return { faults: rounds.length };
    },
  };
}

/** A second replica of each NATS service, then SIGTERM of the originals under load: the graceful drain fails nothing. */
function rollingRestart(t) {
  const names = ['token-service', 'session-service', 'reactor-service'];
  return {
    name: 'rolling restart with a second replica',
    async run(ctx) {
      const stopReplicas = [];
      for (const name of names) stopReplicas.push(await ctx.sys.startReplica(name));
      for (const name of names) {
        await ctx.sys.stop(name);
        await ctx.sys.restart(name);
      }
      for (const stop of stopReplicas) await stop();
      await sleep(t.settle);
      // requests of writes begun here: a write still retrying after an earlier fault is that fault's
      const phase = ctx.recorder.phase;
      const failed = ctx.recorder.attemptsIn(phase).filter((a) => a.status !== 201 && a.status !== 202 && ctx.recorder.writes.get(a.key)?.phase === phase);
      ctx.check('rolling restart: no request fails', failed.length === 0, `${failed.length} failed (${summarizeStatuses(failed)})`);
      return { faults: names.length * 2 };
    },
  };
}

export function summarizeStatuses(attempts) {
  const counts = {};
  for (const a of attempts) {
    const s = a.status === 0 ? a.error : a.status;
    counts[s] = (counts[s] ?? 0) + 1;
  }
  return (
    Object.entries(counts)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ') || '-'
  );
}

/** The fault scenarios in the order they run. */
export function faultScenarios({ ci }) {
  const t = timings(ci);
  return [
    { name: 'warm-up (no fault)', run: async () => (await sleep(ci ? 2_000 : 5_000), { faults: 0 }) },
    ...SERVICE_NAMES.map((name) => killAndRestart(name, t)),
    killAndRestart('nats-server', t, { kill: (sys) => sys.killNats(), restart: (sys) => sys.restartNats(), reconnect: 'a nats-server restart' }),
    killAndRestart('postgresql', t, { kill: (sys) => sys.killPostgres(), restart: (sys) => sys.restartPostgres(), reconnect: 'a PostgreSQL restart' }),
    latency('postgresql', 100, t),
    latency('nats', 100, t),
    droppedConnections('postgresql', t),
    droppedConnections('nats', t),
    lostReply(t),
    rollingRestart(t),
  ];
}
