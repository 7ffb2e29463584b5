// What the suite verifies once the faults are over: every acknowledged write is there with its data, no idempotency
// key produced two tokens or two invocations, every accepted invocation's webhook arrived, no request overran.
import { isDeepStrictEqual } from 'node:util';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every token of this run, through the API (cursor paging), grouped by the idempotency key in its metadata. */
export async function tokensOfRun(client, key, runId) {
  const byKey = new Map();
  let start = '';
  for (let page = 0; page < 100_000; page++) {
    const res = await client.send('GET', `/tokens?metadata.fault_run=${encodeURIComponent(runId)}&size=100&start=${encodeURIComponent(start)}`, { key });
    if (res.status !== 200) throw new Error(`listing the run's tokens failed: ${res.status} ${res.error ?? JSON.stringify(res.body)}`);
    for (const t of res.body.data) {
      const k = t.metadata?.fault_key;
      byKey.set(k, [...(byKey.get(k) ?? []), t]);
    }
    start = res.body.pagination?.next;
    if (!start) break;
  }
  return byKey;
}

/**
 * Acknowledged token writes against what the API returns: `lost` (acknowledged, not there), `wrongData` (there, with
 * other data), `duplicates` (extra tokens for one idempotency key), `orphans` (written but never acknowledged: the
 * client gave up; allowed, counted). A sample is also read back by id.
 */
export async function verifyTokenWrites({ client, key, runId, recorder, sampleById = 100 }) {
  const byKey = await tokensOfRun(client, key, runId);
  // with an idempotency key (retried) and without one (sent once, group-committed): each has its own metadata key
  const writes = [...recorder.writes.values()].filter((w) => w.kind === 'token' || w.kind === 'token-plain');
  const acknowledged = writes.filter((w) => w.acknowledgedAt);
  const lost = [];
  const wrongData = [];
  for (const w of acknowledged) {
    const found = (byKey.get(w.key) ?? []).find((t) => t.id === w.id);
    if (!found) lost.push(w.key);
    else if (!isDeepStrictEqual(found.data, w.data.data) || found.metadata?.fault_key !== w.key) wrongData.push(w.key);
  }
  let duplicates = 0;
  const duplicatedKeys = [];
  for (const [k, tokens] of byKey) {
    if (tokens.length > 1) {
      duplicates += tokens.length - 1;
      duplicatedKeys.push(k);
    }
  }
  const known = new Set(writes.map((w) => w.key));
  const orphans = [...byKey.keys()].filter((k) => !recorder.writes.get(k)?.acknowledgedAt && known.has(k)).length;
  const strangers = [...byKey.keys()].filter((k) => !known.has(k)).length;
  // read back by id as well (the list and the by-id read are different code paths)
  const sample = acknowledged.sort(() => Math.random() - 0.5).slice(0, sampleById);
  let unreadable = 0;
  for (const w of sample) {
    const res = await client.send('GET', `/tokens/${encodeURIComponent(w.id)}`, { key });
    if (res.status !== 200 || !isDeepStrictEqual(res.body?.data, w.data.data)) unreadable++;
  }
  return {
    writes: writes.length,
    acknowledged: acknowledged.length,
    plain: acknowledged.filter((w) => w.kind === 'token-plain').length,
    lost,
    wrongData,
    duplicates,
    duplicatedKeys,
    orphans,
    strangers,
    sampled: sample.length,
    unreadable,
  };
}

/**
 * Asynchronous invocations: every accepted one (202) must reach the receiver (waiting up to `waitMs`), each
 * idempotency key must map to exactly one webhook-id (two ids for one key = the invocation was accepted twice), and
 * the delivered body must be the invocation's own result.
 */
export async function verifyWebhooks({ recorder, receiver, waitMs }) {
  const accepted = [...recorder.writes.values()].filter((w) => w.kind === 'react' && w.acknowledgedAt);
  const deadline = Date.now() + waitMs;
  const missing = () => accepted.filter((w) => !receiver.accepted().has(w.id));
  while (missing().length && Date.now() < deadline) await sleep(250);
  await sleep(1_000); // a late duplicate would arrive now
  const delivered = receiver.accepted();
  const keyOf = (d) => {
    try {
      return JSON.parse(d.body)?.raw?.key;
    } catch {
      return undefined;
    }
  };
  const idsByKey = new Map();
  for (const [id, d] of delivered) idsByKey.set(keyOf(d), new Set([...(idsByKey.get(keyOf(d)) ?? []), id]));
  const problemOf = (d) => {
    try {
      const body = JSON.parse(d.body);
      return typeof body?.status === 'number' && typeof body?.title === 'string' ? body : undefined;
    } catch {
      return undefined;
    }
  };
  let wrongBody = 0;
  /** what a wrong body held (the load's data is synthetic, never a secret), for the report */
  const wrongBodies = [];
  /**
   * Invocations whose run itself failed under the faults (a formula that started is not run again: at most once):
   * their own failure, delivered as a problem document. Counted and shown, not a wrong body.
   */
  const failedRuns = [];
  for (const w of accepted) {
    if (!delivered.has(w.id)) continue;
    const d = delivered.get(w.id);
    if (keyOf(d) === w.key) continue;
    const problem = keyOf(d) === undefined ? problemOf(d) : undefined;
    // a backing service unavailable or too slow while the formula ran; anything else (a 500) is a bug
    if (problem && [502, 503, 504].includes(problem.status))
      failedRuns.push({ id: w.id, status: problem.status, title: problem.title, detail: problem.detail });
    else {
      wrongBody++;
      if (wrongBodies.length < 5) wrongBodies.push({ id: w.id, key: w.key, body: String(d.body).slice(0, 500) });
    }
  }
  let duplicateInvocations = 0;
  for (const ids of idsByKey.values()) duplicateInvocations += ids.size - 1;
  const perId = new Map();
  for (const d of receiver.deliveries) perId.set(d.id, (perId.get(d.id) ?? 0) + 1);
  return {
    accepted: accepted.length,
    delivered: accepted.length - missing().length,
    missing: missing().map((w) => w.id),
    rawDeliveries: receiver.deliveries.length,
    redelivered: [...perId.values()].filter((n) => n > 1).length,
    duplicateInvocations,
    wrongBody,
    wrongBodies,
    failedRuns,
  };
}

/** Attempts slower than `limitMs` (a request that overran its deadline), and the slowest. */
export function latencyFigures(attempts, limitMs) {
  let max = 0;
  let over = 0;
  for (const a of attempts) {
    max = Math.max(max, a.ms);
    if (a.ms > limitMs) over++;
  }
  return { max, over };
}
