// Overload: measure what the system serves (closed loop), then offer twice that at a fixed arrival rate (open loop:
// a slow answer does not slow the offered load, as with real clients) while sampling each service's resident memory
// and probing the health endpoints. Back-pressure should turn the excess into fast 503s with Retry-After.
import { randomUUID } from 'node:crypto';
import { SERVICE_NAMES } from './fault-system.mjs';
import { GatewayClient } from './load-generator.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const MB = 1024 * 1024;

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

/** Creates per second with `concurrency` closed-loop clients over `seconds` (the system's capacity for creates). */
export async function measureCapacity({ url, load, seconds, concurrency = 64 }) {
  const client = new GatewayClient(url, { connections: concurrency });
  let ok = 0;
  const end = Date.now() + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          const k = randomUUID();
          const res = await client.send('POST', '/tokens', { key: load.key, body: load.tokenBody(k), idempotencyKey: k });
          if (res.status === 201) ok++;
        }
      }),
    );
  } finally {
    await client.close();
  }
  return ok / seconds;
}

/**
 * `rate` creates per second for `seconds`. Every request is recorded (phase `overload`) and every acknowledged one
 * becomes a write the final verification reads back. Returns the figures of the run.
 */
export async function overload({ sys, url, load, recorder, rate, seconds, maxOutstanding = 6_000 }) {
  const client = new GatewayClient(url, { connections: maxOutstanding, cutoffMs: 30_000 });
  const baseline = Object.fromEntries(SERVICE_NAMES.map((n) => [n, sys.rss(n)]));
  const peak = { ...baseline };
  const probes = [];
  let outstanding = 0;
  let maxSeenOutstanding = 0;
  let skipped = 0;
  const inFlight = new Set();
  const started = Date.now();
  const end = started + seconds * 1000;

  const fire = () => {
    if (outstanding >= maxOutstanding) return void skipped++;
    outstanding++;
    maxSeenOutstanding = Math.max(maxSeenOutstanding, outstanding);
    const k = randomUUID();
    const body = load.tokenBody(k);
    const write = { kind: 'token', key: k, data: body, attempts: 1, phase: recorder.phase };
    recorder.writes.set(k, write);
    const p = load.attempt('token', k, '/tokens', body).then((res) => {
      write.status = res.status;
      if (res.status === 201) Object.assign(write, { id: res.body?.id, acknowledgedAt: Date.now() });
      outstanding--;
    });
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  };
  // the load's own client would queue requests behind its connection limit: this run gets one sized for the burst
  const loadClient = load.client;
  load.client = client;

  const sampler = setInterval(() => {
    for (const n of SERVICE_NAMES) peak[n] = Math.max(peak[n], sys.rss(n));
  }, 500);
  const prober = (async () => {
    while (Date.now() < end) {
      const targets = [
        ['gateway /healthz', `${url}/healthz`],
        ['gateway /readyz', `${url}/readyz`],
        ...SERVICE_NAMES.filter((n) => n !== 'gateway').map((n) => [`${n} /readyz`, `http://127.0.0.1:${sys.ports[n]}/readyz`]),
      ];
      await Promise.all(
        targets.map(async ([name, target]) => {
          const t = performance.now();
          let status = 0;
          try {
            status = (await fetch(target, { signal: AbortSignal.timeout(5_000) })).status;
          } catch {
            status = 0;
          }
          probes.push({ name, status, ms: performance.now() - t });
        }),
      );
      await sleep(1_000);
    }
  })();

  try {
    // a tick every 10 ms, firing however many requests are due by now
    let fired = 0;
    while (Date.now() < end) {
      const due = Math.floor(((Date.now() - started) / 1000) * rate);
      while (fired < due) {
        fire();
        fired++;
      }
      await sleep(10);
    }
    await prober;
    await Promise.all([...inFlight]);
  } finally {
    clearInterval(sampler);
    load.client = loadClient;
    await client.close();
  }

  const attempts = recorder.attemptsIn(recorder.phase);
  const sorted = attempts.map((a) => a.ms).sort((a, b) => a - b);
  const byStatus = {};
  for (const a of attempts) byStatus[a.status || a.error] = (byStatus[a.status || a.error] ?? 0) + 1;
  const unavailable = attempts.filter((a) => a.status === 503);
  const failedProbes = probes.filter((p) => p.status !== 200);
  return {
    offered_per_s: rate,
    seconds,
    requests: attempts.length,
    not_sent_client_saturated: skipped,
    acknowledged_per_s: Math.round(attempts.filter((a) => a.status === 201).length / seconds),
    statuses: byStatus,
    unavailable_503: unavailable.length,
    unavailable_with_retry_after_and_problem: unavailable.filter((a) => a.retryAfter && a.problem).length,
    p50_ms: Math.round(percentile(sorted, 50)),
    p99_ms: Math.round(percentile(sorted, 99)),
    max_ms: Math.round(sorted.at(-1) ?? 0),
    p50_503_ms: Math.round(
      percentile(
        unavailable.map((a) => a.ms).sort((a, b) => a - b),
        50,
      ),
    ),
    max_outstanding: maxSeenOutstanding,
    rss_mb_before: Object.fromEntries(Object.entries(baseline).map(([n, b]) => [n, Math.round(b / MB)])),
    rss_mb_peak: Object.fromEntries(Object.entries(peak).map(([n, b]) => [n, Math.round(b / MB)])),
    health_probes: probes.length,
    health_probes_failed: failedProbes.length,
    health_probe_statuses: probes.map((p) => p.status),
    health_probe_failures: [...new Set(failedProbes.map((p) => `${p.name} ${p.status}`))],
    health_probe_max_ms: Math.round(Math.max(0, ...probes.map((p) => p.ms))),
  };
}
