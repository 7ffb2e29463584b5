import fs from 'node:fs';
import http from 'node:http';
import { setMaxListeners } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { control, gatewayUrl } from '@coffer/testing';

/**
 * The machinery of the noisy-neighbour suite (issue 22): a victim tenant whose requests are timed while another tenant
 * or an anonymous client runs a hostile pattern, the attack loops themselves, the checks made after each attack
 * (recovery, statements left running in PostgreSQL) and the report. Plain fetch and sockets: the timing must not
 * include a response validator, and the attacks send what a validating client never would.
 */

/** How long and how hard: `npm test` runs the bounded profile, `npm run test:faults` the long one (NOISY_NEIGHBOUR_MODE=full). */
export interface Profile {
  mode: 'ci' | 'full';
  /** victim alone, before each attack */
  baselineMs: number;
  /** victim timed while the attack runs */
  windowMs: number;
  /** concurrent victim clients, each with its own application (the per-application rate limit is not under test) */
  victimClients: number;
  /** each victim client's pause between two requests: a steady, light load on a 2-core machine */
  victimPauseMs: number;
  /** how long the attack's requests still in flight at the end of the window may take to be answered */
  settleMs: number;
  /** how long the victim may take to be healthy again once the attack has stopped */
  recoveryMs: number;
}

export function profileFromEnv(): Profile {
  const full = process.env['NOISY_NEIGHBOUR_MODE'] === 'full';
  const seconds = Number(process.env['NOISY_NEIGHBOUR_WINDOW_S'] ?? '') || (full ? 20 : 4);
  return {
    mode: full ? 'full' : 'ci',
    baselineMs: full ? 5_000 : 2_000,
    windowMs: seconds * 1_000,
    victimClients: Number(process.env['NOISY_NEIGHBOUR_CLIENTS'] ?? '') || (full ? 6 : 3),
    victimPauseMs: 30,
    // an attack request past its 5 s gateway deadline plus a loaded machine; a 10 s react plus its queue
    settleMs: full ? 20_000 : 12_000,
    recoveryMs: full ? 30_000 : 10_000,
  };
}

/** The victim's bar: every request answered as expected, and p99 under a second. */
export const VICTIM_P99_LIMIT_MS = 1_000;
/** Longest an answer may take before the client gives up and counts a failure: a hang must not stall the suite. */
export const CLIENT_CUTOFF_MS = 20_000;
/**
 * A statement of the run's database still running this long after it started has outlived every deadline of the
 * system (5 s per RPC): nobody is waiting for it any more.
 */
export const LINGERING_STATEMENT_S = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Outcome {
  status: number;
  ms: number;
  /** network error or client cut-off: status 0 */
  error?: string;
  body?: any;
}

/**
 * One request to the gateway; never throws (a network error or the cut-off is status 0). `discard`: the answer's body
 * is read as bytes and dropped (large proxied answers: decoding them would cost the process that times the victim).
 */
export async function send(
  method: string,
  p: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string>; cutoffMs?: number; signal?: AbortSignal; discard?: boolean } = {},
): Promise<Outcome> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers['SVC-API-KEY'] = opts.key;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const signals = [AbortSignal.timeout(opts.cutoffMs ?? CLIENT_CUTOFF_MS), ...(opts.signal ? [opts.signal] : [])];
  const started = performance.now();
  try {
    const res = await fetch(`${gatewayUrl()}${p}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.any(signals),
    });
    if (opts.discard && !(res.headers.get('content-type') ?? '').includes('problem+json')) {
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - started };
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, ms: performance.now() - started, body };
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    return { status: 0, ms: performance.now() - started, error: e.cause?.code ?? e.name ?? 'error' };
  }
}

export interface Figures {
  requests: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** answers other than the expected status, network errors and cut-offs */
  failures: number;
  /** status → count of the failures (0: network error or cut-off) */
  failed_statuses: Record<string, number>;
}

export function percentile(sortedMs: number[], p: number): number {
  if (!sortedMs.length) return 0;
  return sortedMs[Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1)];
}

export function figuresOf(samples: Array<{ ok: boolean; status: number; ms: number }>): Figures {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const failed = samples.filter((s) => !s.ok);
  return {
    requests: samples.length,
    p50_ms: Math.round(percentile(sorted, 50)),
    p99_ms: Math.round(percentile(sorted, 99)),
    max_ms: Math.round(sorted[sorted.length - 1] ?? 0),
    failures: failed.length,
    failed_statuses: countBy(failed.map((s) => String(s.status))),
  };
}

export function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/** One kind of victim request: a read by id, an idempotent create (pattern 6) or a quick react (pattern 7). */
export interface VictimOperation {
  name: string;
  expected: number;
  run(client: number, n: number): Promise<Outcome>;
}

/** Closed-loop victim clients: each sends one request at a time, pausing between two, until stopped. */
export class VictimTimer {
  private running = false;
  private loops: Array<Promise<void>> = [];
  private readonly samples = new Map<string, Array<{ ok: boolean; status: number; ms: number }>>();

  constructor(
    private readonly operations: VictimOperation[],
    private readonly clients: number,
    private readonly pauseMs: number,
  ) {}

  /** `clients` loops per operation: a slow create must not thin out the reads' samples */
  start(): void {
    this.running = true;
    this.loops = this.operations.flatMap((op) => Array.from({ length: this.clients }, (_, client) => this.loop(op, client)));
  }

  async stop(): Promise<Record<string, Figures>> {
    this.running = false;
    await Promise.all(this.loops);
    return Object.fromEntries(this.operations.map((op) => [op.name, figuresOf(this.samples.get(op.name) ?? [])]));
  }

  /** Times the victim alone (or under whatever runs) for `ms`. */
  static async measure(operations: VictimOperation[], clients: number, pauseMs: number, ms: number): Promise<Record<string, Figures>> {
    const timer = new VictimTimer(operations, clients, pauseMs);
    timer.start();
    await sleep(ms);
    return timer.stop();
  }

  private async loop(op: VictimOperation, client: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const res = await op.run(client, n);
      const list = this.samples.get(op.name) ?? [];
      list.push({ ok: res.status === op.expected, status: res.status, ms: res.ms });
      this.samples.set(op.name, list);
      if (this.running) await sleep(this.pauseMs);
    }
  }
}

/** What an attack sees while it runs: whether the window is still open, where to record what it got, how to stop. */
export class AttackContext {
  private readonly statuses: string[] = [];
  private readonly abort = new AbortController();
  private open = true;
  private markClosed: () => void = () => undefined;
  /** resolves when the window closes */
  readonly closed = new Promise<void>((resolve) => (this.markClosed = resolve));
  readonly notes: string[] = [];

  constructor() {
    // every request of the attack and every slow-body socket listens to it
    setMaxListeners(0, this.abort.signal);
  }

  get active(): boolean {
    return this.open;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  record(status: number | string): void {
    this.statuses.push(String(status));
  }

  /** the window has closed: send nothing new */
  close(): void {
    this.open = false;
    this.markClosed();
  }

  /** the attack's requests have had their time: give up on those still waiting */
  cancel(): void {
    this.abort.abort();
  }

  statusCounts(): Record<string, number> {
    return countBy(this.statuses);
  }
}

/**
 * The attack in waves: `size` requests at once, the next wave when all of them are answered (and `pauseMs` after),
 * until the window closes. A wave of slow requests is one wave for the whole window, as an attacker's would be.
 */
export async function waves(ctx: AttackContext, size: number, one: (i: number) => Promise<Outcome>, pauseMs = 250): Promise<void> {
  for (let wave = 0; ctx.active; wave++) {
    const answers = await Promise.all(Array.from({ length: size }, (_, i) => one(wave * size + i)));
    for (const a of answers) ctx.record(a.status === 0 && ctx.signal.aborted ? 'unanswered' : a.status);
    if (ctx.active) await sleep(pauseMs);
  }
}

/** `size` independent loops, each sending its next request as soon as the last is answered, until the window closes. */
export async function loops(ctx: AttackContext, size: number, one: (i: number) => Promise<Outcome>): Promise<void> {
  await Promise.all(
    Array.from({ length: size }, async (_, worker) => {
      for (let n = 0; ctx.active; n++) {
        const a = await one(n * size + worker);
        ctx.record(a.status === 0 && ctx.signal.aborted ? 'unanswered' : a.status);
      }
    }),
  );
}

/**
 * `count` raw connections that send a request's headers announcing a body of `contentLength` bytes, then nothing.
 * Each records what the gateway did: answered (its status), closed the connection, or left it open until the window
 * closed (`open`). All are destroyed when the window closes so they cannot outlive the pattern.
 */
export async function slowBodies(ctx: AttackContext, count: number, opts: { key?: string; contentLength?: number; path?: string } = {}): Promise<void> {
  const url = new URL(gatewayUrl());
  const head =
    `POST ${opts.path ?? '/tokens'} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${opts.contentLength ?? 100_000}\r\n${opts.key ? `SVC-API-KEY: ${opts.key}\r\n` : ''}\r\n`;
  const sockets = Array.from(
    { length: count },
    () =>
      new Promise<string>((resolve) => {
        let outcome: string | undefined;
        const socket = net.connect(Number(url.port), url.hostname);
        const done = (o: string) => {
          outcome ??= o;
          socket.destroy();
          resolve(outcome);
        };
        socket.on('connect', () => socket.write(head));
        socket.on('data', (chunk) => {
          const status = /^HTTP\/1\.[01] (\d{3})/.exec(chunk.toString('latin1'));
          outcome ??= status ? status[1] : 'garbled';
        });
        socket.on('error', () => done('reset'));
        socket.on('close', () => done('closed'));
        ctx.signal.addEventListener('abort', () => done('open'), { once: true });
        void ctx.closed.then(() => done('open'));
      }),
  );
  for (const outcome of await Promise.all(sockets)) ctx.record(outcome);
}

/** A problem with what the attacker got, or null: statuses outside `allowed` (labels like `open` are not statuses). */
export function unexpectedStatuses(counts: Record<string, number>, allowed: (status: number) => boolean): string | null {
  const bad = Object.entries(counts).filter(([s]) => /^\d+$/.test(s) && !allowed(Number(s)));
  return bad.length ? bad.map(([s, n]) => `${n}× ${s}`).join(', ') : null;
}

/** Statements of the run's database running for more than `olderThanS` (other than this query). */
export async function lingeringStatements(olderThanS: number, cancel: boolean): Promise<Array<{ pid: number; seconds: number; query: string }>> {
  const client = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number; seconds: number; query: string }>(
      `SELECT pid, EXTRACT(EPOCH FROM now() - query_start)::float AS seconds, left(query, 80) AS query
         FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
          AND now() - query_start > make_interval(secs => $1)`,
      [olderThanS],
    );
    // the suite shares PostgreSQL with the rest of the run: what it provoked must not keep running after it
    if (cancel) for (const r of rows) await client.query('SELECT pg_cancel_backend($1)', [r.pid]);
    return rows;
  } finally {
    await client.end();
  }
}

export interface PatternResult {
  pattern: string;
  attacker: string;
  baseline: Record<string, Figures>;
  under_attack: Record<string, Figures>;
  attacker_statuses: Record<string, number>;
  /** seconds from the end of the attack until a short victim probe was healthy again; null: not within the bound */
  recovered_after_s: number | null;
  /** the service restarted by the suite because the victim did not recover (so later patterns measure their own attack) */
  restarted?: string;
  lingering_statements: number;
  notes: string[];
  problems: string[];
}

export interface Pattern {
  name: string;
  /** who attacks, for the table: `tenant`, `anonymous`, `same tenant key` */
  attacker: string;
  /** set-up outside the timed windows (tenants, applications, tokens); returns the attack */
  prepare(): Promise<(ctx: AttackContext) => Promise<void>>;
  /** statuses the attacker may get; anything else is a finding (e.g. a 500 or a 504 instead of a 4xx) */
  allowed?: (status: number) => boolean;
  /** extra victim operations timed in this pattern (idempotent creates) */
  victimExtra?: VictimOperation[];
  /** wait this long after the window opened before looking for lingering statements (the search pattern) */
  lingeringCheckAfterMs?: number;
}

/**
 * One pattern: baseline, attack with the victim timed, the attack's requests answered (or given up), recovery,
 * statements left in PostgreSQL. Returns the figures and every problem found; the caller asserts.
 */
export async function runPattern(profile: Profile, victimReads: VictimOperation, pattern: Pattern): Promise<PatternResult> {
  const ops = [victimReads, ...(pattern.victimExtra ?? [])];
  const measure = (ms: number) => VictimTimer.measure(ops, profile.victimClients, profile.victimPauseMs, ms);
  const attack = await pattern.prepare();
  // One untimed call per victim client first. The sandbox's workers stop after SANDBOX_IDLE_EXIT_MS without a react,
  // and the first react after such a pause starts them again (about a second). That start is nobody's attack, and
  // in a 2 s baseline it alone made p99 pass the limit.
  await Promise.all(ops.flatMap((op) => Array.from({ length: profile.victimClients }, (_, client) => op.run(client, client))));
  const baseline = await measure(profile.baselineMs);

  const ctx = new AttackContext();
  const timer = new VictimTimer(ops, profile.victimClients, profile.victimPauseMs);
  const windowStart = Date.now();
  timer.start();
  const attacking = attack(ctx).catch((err: Error) => void ctx.notes.push(`attack failed: ${err.message}`));
  await sleep(profile.windowMs);
  ctx.close();
  const underAttack = await timer.stop();
  const settled = await Promise.race([attacking.then(() => true), sleep(profile.settleMs).then(() => false)]);
  if (!settled) {
    ctx.cancel();
    await attacking;
    ctx.notes.push(`attack requests still unanswered ${profile.settleMs / 1000} s after the window`);
  }

  const problems: string[] = [];
  const attackEnded = Date.now();
  let recovered: number | null = null;
  while (Date.now() - attackEnded < profile.recoveryMs) {
    const probe = await VictimTimer.measure([victimReads], 1, profile.victimPauseMs, 500);
    const f = probe[victimReads.name];
    if (f.failures === 0 && f.requests > 0 && f.p99_ms <= VICTIM_P99_LIMIT_MS) {
      recovered = +((Date.now() - attackEnded) / 1000).toFixed(1);
      break;
    }
  }
  let restarted: string | undefined;
  if (recovered === null) {
    problems.push(`the victim was still unhealthy ${profile.recoveryMs / 1000} s after the attack stopped`);
    // work left behind (a spinning loop) would otherwise be charged to the next pattern and to the next test files
    await control('stop', 'token-service', 'SIGKILL');
    await control('start', 'token-service');
    restarted = 'token-service';
  }

  const checkAt = windowStart + (pattern.lingeringCheckAfterMs ?? 0);
  if (Date.now() < checkAt) await sleep(checkAt - Date.now());
  const lingering = await lingeringStatements(LINGERING_STATEMENT_S, true);
  if (lingering.length) problems.push(`${lingering.length} statement(s) still running after ${LINGERING_STATEMENT_S} s (cancelled by the suite)`);

  for (const [op, f] of Object.entries(baseline)) {
    if (f.failures || f.p99_ms > VICTIM_P99_LIMIT_MS) problems.push(`victim ${op} baseline unhealthy: p99 ${f.p99_ms} ms, ${f.failures} failures`);
  }
  for (const [op, f] of Object.entries(underAttack)) {
    if (f.p99_ms > VICTIM_P99_LIMIT_MS) problems.push(`victim ${op} p99 ${f.p99_ms} ms under attack (limit ${VICTIM_P99_LIMIT_MS} ms)`);
    if (f.failures) problems.push(`victim ${op}: ${f.failures} of ${f.requests} failed under attack (${JSON.stringify(f.failed_statuses)})`);
  }
  const statuses = ctx.statusCounts();
  const unexpected = pattern.allowed ? unexpectedStatuses(statuses, pattern.allowed) : null;
  if (unexpected) problems.push(`attacker got ${unexpected}`);
  return {
    pattern: pattern.name,
    attacker: pattern.attacker,
    baseline,
    under_attack: underAttack,
    attacker_statuses: statuses,
    recovered_after_s: recovered,
    ...(restarted ? { restarted } : {}),
    lingering_statements: lingering.length,
    notes: ctx.notes,
    problems,
  };
}

/** The victim's read: its own token by id, with a key that has token:read (masked data). */
export function victimRead(keys: string[], tokenIds: string[]): VictimOperation {
  return {
    name: 'read',
    expected: 200,
    run: (client, n) => send('GET', `/tokens/${tokenIds[n % tokenIds.length]}`, { key: keys[client % keys.length] }),
  };
}

/** The victim's idempotent create: a new token under its own SVC-IDEMPOTENCY-KEY. */
export function victimCreate(keys: string[]): VictimOperation {
  return {
    name: 'idempotent create',
    expected: 201,
    run: (client) =>
      send('POST', '/tokens', { key: keys[client % keys.length], headers: { 'SVC-IDEMPOTENCY-KEY': randomUUID() }, body: { type: 'token', data: 'victim' } }),
  };
}

/** The victim's proxied call: a small answer of a destination through the ephemeral proxy (proxy-service is shared). */
export function victimProxy(key: string, destination: string): VictimOperation {
  return {
    name: 'proxy',
    expected: 200,
    run: () => send('GET', '/proxy/small', { key, headers: { 'BT-PROXY-URL': destination } }),
  };
}

/** The victim's synchronous react of a quick formula (its own reactor): the sandbox is shared by every tenant. */
export function victimReact(key: string, reactorId: string): VictimOperation {
  return {
    name: 'react',
    expected: 200,
    run: () => send('POST', `/reactors/${reactorId}/react`, { key, body: { args: {} } }),
  };
}

/**
 * The victim's webhook receiver: records when each token.created event arrived (by token id) and answers 204 at once.
 * `arrival(id)` resolves when it has arrived, or with null after `timeoutMs`.
 */
export class DeliveryWatch {
  private readonly arrived = new Map<string, number>();
  private readonly waiting = new Map<string, () => void>();
  private server?: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.writeHead(204).end();
        const id = (JSON.parse(body) as { event?: { data?: { token?: { id?: string } } } }).event?.data?.token?.id;
        if (!id || this.arrived.has(id)) return;
        this.arrived.set(id, performance.now());
        this.waiting.get(id)?.();
      });
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}/events`;
    return this;
  }

  async arrival(id: string, timeoutMs: number): Promise<number | null> {
    if (!this.arrived.has(id)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs).unref();
        this.waiting.set(id, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.waiting.delete(id);
    }
    return this.arrived.get(id) ?? null;
  }

  stop(): Promise<void> {
    return new Promise((r) => {
      if (!this.server) return r();
      this.server.close(() => r());
      this.server.closeAllConnections();
    });
  }
}

/**
 * The victim's token create timed until its token.created event reached the victim's webhook receiver: a delivery
 * held up by someone else's receivers shows as a slow "request" (status 0 when it did not arrive within 10 s).
 */
export function victimDelivery(key: string, watch: DeliveryWatch): VictimOperation {
  return {
    name: 'webhook delivery',
    expected: 201,
    async run() {
      const started = performance.now();
      const created = await send('POST', '/tokens', { key, body: { type: 'token', data: 'victim' } });
      if (created.status !== 201) return created;
      const at = await watch.arrival(created.body.id, 10_000);
      return at === null ? { status: 0, ms: performance.now() - started, error: 'not delivered' } : { status: 201, ms: at - started };
    },
  };
}

function cell(f: Figures | undefined): string {
  return f ? `${f.p50_ms}/${f.p99_ms}` : '-';
}

/** One row per pattern and victim operation, as printed to stderr. */
export function reportRows(results: PatternResult[]): Array<Record<string, string>> {
  return results.flatMap((r) =>
    Object.keys(r.under_attack).map((op) => ({
      pattern: r.pattern,
      attacker: r.attacker,
      victim: op,
      'baseline p50/p99 ms': cell(r.baseline[op]),
      'attack p50/p99 ms': cell(r.under_attack[op]),
      'victim failed': `${r.under_attack[op].failures}/${r.under_attack[op].requests}`,
      'attacker statuses': Object.entries(r.attacker_statuses)
        .map(([s, n]) => `${s}×${n}`)
        .join(' '),
      recovered: r.recovered_after_s === null ? `no${r.restarted ? ` (restarted ${r.restarted})` : ''}` : `${r.recovered_after_s} s`,
      verdict: r.problems.length ? 'FAIL' : 'pass',
    })),
  );
}

export function formatTable(rows: Array<Record<string, string>>): string {
  if (!rows.length) return '(no pattern ran)';
  const columns = Object.keys(rows[0]);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((v, i) => v.padEnd(widths[i])).join('  ');
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join('\n');
}

/** The table to stderr, everything to tmp/noisy-neighbour.json (tools/faults reads it back in its long run). */
export function writeReport(profile: Profile, results: PatternResult[]): string {
  const file = path.resolve(__dirname, '../../../..', 'tmp', 'noisy-neighbour.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ written_at: new Date().toISOString(), profile, victim_p99_limit_ms: VICTIM_P99_LIMIT_MS, results }, null, 2));
  const problems = results.flatMap((r) => r.problems.map((p) => `  ${r.pattern}: ${p}`));
  const notes = results.flatMap((r) => r.notes.map((n) => `  ${r.pattern}: ${n}`));
  process.stderr.write(
    `\n== noisy neighbour (${profile.mode}: baseline ${profile.baselineMs / 1000} s, window ${profile.windowMs / 1000} s, ${profile.victimClients} victim clients) ==\n` +
      `${formatTable(reportRows(results))}\n` +
      (problems.length ? `problems:\n${problems.join('\n')}\n` : '') +
      (notes.length ? `notes:\n${notes.join('\n')}\n` : '') +
      `report: ${file}\n`,
  );
  return file;
}
