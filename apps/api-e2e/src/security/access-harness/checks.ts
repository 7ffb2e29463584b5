/**
 * The checks run after every step of the model-based security test against the reference model of
 * ../access-model.ts, each counted in the run's statistics; a failed one throws an InvariantViolation carrying the
 * sequence so far.
 *
 * - status: the reply's status is one the model allows (allowed vs 401/403/404/400/409);
 * - data: every `data` in the reply is exactly what the model's decision gives (revealed = plaintext, masked = the
 *   evaluated mask, redacted = no key) — lists and search also by their exact set of ids;
 * - leak: no plaintext of any token of the run appears anywhere else in any reply (errors included);
 * - state: after every write attempt, the token as its tenant's all-powerful application sees it (data, mask,
 *   container, existence) equals the model — a refused write changed nothing;
 * - escalation (invariant 2): after a successful write by P, every other principal reads the token exactly as the
 *   model says, and never more revealingly than before unless P could reveal it;
 * - oracle: after a successful write that changes what searches disclose, `data:` searches find the token for exactly
 *   the probes the model says.
 */
import type { ApiResponse } from '@coffer/testing';
import {
  DEFAULT_MASK,
  acceptableData,
  deepEqual,
  disclosure,
  indexValues,
  render,
  type Alt,
  type DataExpectation,
  type Principal,
  type TenantName,
  type TokenState,
} from '../access-model';
import { PROBES, probeValue } from './generators';
import type { World } from './world';

// ---------------------------------------------------------------------------------------------------------------
// statistics and failures

export interface Stats {
  sequences: number;
  operations: number;
  checks: number;
  requests: number;
  throttled: number;
  byCheck: Record<string, number>;
  byOp: Record<string, number>;
  /** "op status" → count: how often each operation was allowed or refused */
  byOutcome: Record<string, number>;
  /** "op status why" → count: which rule of the model decided (coverage of the contract) */
  byWhy: Record<string, number>;
}
export const newStats = (): Stats => ({ sequences: 0, operations: 0, checks: 0, requests: 0, throttled: 0, byCheck: {}, byOp: {}, byOutcome: {}, byWhy: {} });

export class InvariantViolation extends Error {
  constructor(
    readonly category: string,
    message: string,
  ) {
    super(`[${category}] ${message}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// the checks

/** The alternative the reply matches (by status), or a failure. */
export function match(w: World, op: string, alts: Alt[], res: ApiResponse): Alt {
  w.count('status');
  const alt = alts.find((a) => a.status === res.status);
  const outcome = `${op} ${res.status}`;
  w.stats.byOutcome[outcome] = (w.stats.byOutcome[outcome] ?? 0) + 1;
  if (alt) {
    const why = `${outcome} ${alt.why}`;
    w.stats.byWhy[why] = (w.stats.byWhy[why] ?? 0) + 1;
  }
  w.trace[w.trace.length - 1] += ` → ${res.status} (model: ${alts.map((a) => `${a.status} ${a.why}`).join(' | ')})`;
  if (!alt) w.fail(`${op}/status`, `status ${res.status} not allowed by the model: ${res.text.slice(0, 400)}`);
  return alt;
}

/** The `data` of one reply against the model's expectation. */
export function checkData(w: World, op: string, what: string, body: Record<string, unknown> | undefined, e: DataExpectation): void {
  w.count('data');
  const present = !!body && typeof body === 'object' && 'data' in body;
  const value = present ? (body as Record<string, unknown>)['data'] : undefined;
  const ok = acceptableData(e).some((c) => c.present === present && (!c.present || deepEqual(c.value, value)));
  if (!ok) {
    const want = 'exact' in e ? `${e.exact}: ${JSON.stringify(render(e.exact, e.token))}` : `at most ${e.atMost}`;
    w.fail(`${op}/data`, `${what}: data ${present ? JSON.stringify(value) : '(absent)'} but the model allows ${want}`);
  }
  if (body && typeof body === 'object') {
    w.count('state');
    if (body['id'] !== e.token.id && e.token.id) w.fail(`${op}/data`, `${what}: id ${String(body['id'])}, expected ${e.token.id}`);
    if (!deepEqual(body['containers'], [e.token.container]))
      w.fail(`${op}/state`, `${what}: containers ${JSON.stringify(body['containers'])}, model ${e.token.container}`);
  }
}

/** No plaintext of the run outside the checked `data` values. */
export function checkLeak(w: World, op: string, res: ApiResponse, checkedData: boolean): void {
  w.count('leak');
  let rest: unknown = res.body;
  if (checkedData) rest = stripData(res.body);
  const text = typeof rest === 'string' ? rest : JSON.stringify(rest ?? '');
  for (const [secret, label] of w.secrets) {
    if (text.includes(secret)) w.fail(`${op}/leak`, `the plaintext of ${label} appears outside a checked data value: ${text.slice(0, 400)}`);
  }
}

/** Checks a single-token reply end to end and applies the matched outcome to the model. */
export function verify(w: World, op: string, alts: Alt[], res: ApiResponse, what: string): Alt {
  const alt = match(w, op, alts, res);
  if (alt.data) checkData(w, op, what, res.body, alt.data);
  if (alt.items) checkItems(w, op, res, alt.items);
  if (alt.body !== undefined) {
    w.count('data');
    if (!deepEqual(res.body, alt.body)) w.fail(`${op}/data`, `${what}: reply ${res.text.slice(0, 300)} but the model expects ${JSON.stringify(alt.body)}`);
  }
  // a body compared whole (detokenize) has nothing unchecked left; otherwise everything but checked data
  if (alt.body === undefined) checkLeak(w, op, res, !!alt.data || !!alt.items);
  else w.count('leak');
  alt.effect?.();
  return alt;
}

export function checkItems(w: World, op: string, res: ApiResponse, items: Map<string, DataExpectation>): void {
  w.count('data');
  const got: Array<Record<string, unknown>> = Array.isArray(res.body?.data) ? res.body.data : [];
  const gotIds = got.map((t) => String(t['id'])).sort();
  const wantIds = [...items.keys()].sort();
  if (!deepEqual(gotIds, wantIds)) {
    const name = (id: string) => w.model.tokens.find((t) => t.id === id)?.label ?? id;
    w.fail(`${op}/data`, `listed ${JSON.stringify(gotIds.map(name))} but the model allows exactly ${JSON.stringify(wantIds.map(name))}`);
  }
  for (const t of got) checkData(w, op, `item ${w.model.tokens.find((x) => x.id === t['id'])?.label}`, t, items.get(String(t['id'])) as DataExpectation);
}

/** State check: the token as its tenant's all-powerful application sees it equals the model. */
export async function checkState(w: World, op: string, t: TokenState): Promise<void> {
  const owner = w.ownerOf(t.tenant);
  const res = await w.call('GET', `/tokens/${t.id}`, { key: w.keyOf(owner) });
  w.count('state');
  if (t.deleted) {
    if (res.status !== 404) w.fail(`${op}/state`, `${t.label} should be deleted, ${owner.kind === 'app' ? owner.app : ''} reads ${res.status}`);
    return;
  }
  if (res.status !== 200) w.fail(`${op}/state`, `${t.label}: the owner reads ${res.status} ${res.text.slice(0, 200)}`);
  const b = res.body;
  const mask = b.mask === undefined || b.mask === null ? DEFAULT_MASK[t.type] : b.mask;
  const problems: string[] = [];
  if (!deepEqual(b.data, t.data)) problems.push(`data ${JSON.stringify(b.data)} ≠ model ${JSON.stringify(t.data)}`);
  if (!deepEqual(mask, t.mask === undefined ? DEFAULT_MASK[t.type] : t.mask)) problems.push(`mask ${JSON.stringify(b.mask)} ≠ model ${JSON.stringify(t.mask)}`);
  if (!deepEqual(b.containers, [t.container])) problems.push(`containers ${JSON.stringify(b.containers)} ≠ model ${t.container}`);
  if (!deepEqual(b.metadata ?? {}, t.metadata)) problems.push(`metadata ${JSON.stringify(b.metadata)} ≠ model ${JSON.stringify(t.metadata)}`);
  if (!deepEqual(b.search_indexes ?? [], t.searchIndexes))
    problems.push(`search_indexes ${JSON.stringify(b.search_indexes)} ≠ model ${JSON.stringify(t.searchIndexes)}`);
  if (b.fingerprint_expression !== t.fingerprintExpression)
    problems.push(`fingerprint_expression ${JSON.stringify(b.fingerprint_expression)} ≠ model ${JSON.stringify(t.fingerprintExpression)}`);
  // the fingerprint is a function of the type, the expression, the data and (when the expression names it) the metadata
  const inputs = JSON.stringify([t.type, t.fingerprintExpression, t.data, t.fingerprintExpression.includes('metadata') ? t.metadata : null]);
  const seen = w.fingerprints.get(t.label);
  if (seen && seen.inputs === inputs && seen.fingerprint !== b.fingerprint) problems.push('the fingerprint changed although its inputs did not');
  w.fingerprints.set(t.label, { inputs, fingerprint: b.fingerprint });
  if (problems.length) w.fail(`${op}/state`, `${t.label} as stored: ${problems.join('; ')}`);
}

/**
 * Invariant 2 after a successful write by `writer` on `t`: every other principal of the tenant reads exactly what
 * the model says, and — unless the writer could reveal t — never more than it could before the write.
 */
export async function sweep(w: World, op: string, writer: Principal, t: TokenState, before: Map<Principal, number>, writerCouldReveal: boolean): Promise<void> {
  const observers = [...before.keys()];
  const replies = await Promise.all(observers.map((q) => w.call('GET', `/tokens/${t.id}`, { key: w.keyOf(q) })));
  observers.forEach((q, i) => {
    const res = replies[i];
    const alts = w.model.expectGet(q, t);
    w.count('escalation');
    const alt = alts.find((a) => a.status === res.status);
    const who = `${w.describe(q)} reading ${t.label} after ${w.describe(writer)}'s write`;
    if (!alt) w.fail(`${op}/escalation`, `${who}: ${res.status}, model ${alts.map((a) => a.status).join('|')}`);
    const present = res.status === 200 && 'data' in res.body;
    const after = disclosure(present, present ? res.body.data : undefined, t);
    if (!writerCouldReveal && after > (before.get(q) as number)) {
      w.fail(
        `${op}/escalation`,
        `${who}: disclosure rose from ${before.get(q)} to ${after} (0 none, 1 mask, 2 plaintext) although the writer cannot reveal ${t.label}`,
      );
    }
    if (alt.data) checkData(w, op, who, res.body, alt.data);
    checkLeak(w, op, res, !!alt.data);
  });
}

/**
 * The search oracle after a successful write by `writer` on `t`: every principal that may search finds `t` by
 * `data:` for exactly the probes the model says (its indexes evaluated over its data), and — unless the writer could
 * reveal t — for no probe of the plaintext it could not confirm before the write (`before`: t as it was).
 */
export async function oracleSweep(w: World, op: string, writer: Principal, t: TokenState, before: TokenState, writerCouldReveal: boolean): Promise<void> {
  if (t.deleted) return;
  const searchers = w
    .principals()
    .filter((q) => w.model.keyState(q) === 'valid' && w.model.tenantOf(q) === t.tenant && w.model.holds(q, 'token:search') === 'yes');
  for (const q of searchers) {
    for (const probe of PROBES) {
      const value = probeValue(t, probe);
      const res = await w.call('POST', '/tokens/search', {
        key: w.keyOf(q),
        body: { query: `metadata.run:${w.tag} AND data:"${value}"`, size: 100 },
      });
      const who = `${w.describe(q)} searching data:${probe} of ${t.label} after ${w.describe(writer)}'s write`;
      w.count('oracle');
      const alts = w.model.expectSearchData(q, value);
      const alt = alts.find((a) => a.status === res.status);
      if (!alt) w.fail(`${op}/oracle`, `${who}: ${res.status}, model ${alts.map((a) => a.status).join('|')}`);
      const found = res.status === 200 && Array.isArray(res.body?.data) && res.body.data.some((x: { id: string }) => x.id === t.id);
      const couldBefore = !before.deleted && w.model.decide(q, 'token:search', before).allowed && indexValues(before).includes(value);
      if (found && !couldBefore && !writerCouldReveal && deepEqual(before.data, t.data)) {
        w.fail(`${op}/oracle`, `${who}: found by data:${probe} although it was not before and the writer cannot reveal ${t.label}`);
      }
      if (alt.items) checkItems(w, `${op}/oracle`, res, alt.items);
      checkLeak(w, op, res, true);
    }
  }
}

/** The observers of a write and what each could see before it (model). */
export function observersOf(w: World, writer: Principal, t: TokenState): Map<Principal, number> {
  const out = new Map<Principal, number>();
  for (const q of w.principals()) {
    if (deepEqual(q, writer) || w.model.keyState(q) !== 'valid' || w.model.tenantOf(q) !== t.tenant) continue;
    if (w.model.holds(q, 'token:read') === 'no') continue;
    const d = w.model.decide(q, 'token:read', t);
    const r = d.allowed && !t.deleted ? render(d.transform, t) : { present: false as const };
    out.set(q, r.present ? disclosure(true, r.value, t) : 0);
  }
  return out;
}

/** End of run: each tenant's owner lists the run's tokens; exactly the model's live tokens, revealed. */
export async function inventory(w: World): Promise<void> {
  for (const tenant of ['A', 'B'] as TenantName[]) {
    const owner = w.ownerOf(tenant);
    const res = await w.call('GET', `/tokens?metadata.run=${w.tag}&size=100`, { key: w.keyOf(owner) });
    w.count('state');
    const got = (res.body?.data ?? []).map((t: { id: string }) => t.id).sort();
    const want = w.model
      .live(tenant)
      .map((t) => t.id)
      .sort();
    if (res.status !== 200 || !deepEqual(got, want))
      w.fail('inventory/state', `tenant ${tenant} holds ${JSON.stringify(got)} (${res.status}), model ${JSON.stringify(want)}`);
  }
}

export function stripData(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  if (Array.isArray((body as { data?: unknown }).data)) {
    return { ...(body as object), data: ((body as { data: unknown[] }).data as Array<Record<string, unknown>>).map((t) => ({ ...t, data: undefined })) };
  }
  return { ...(body as object), data: undefined };
}
