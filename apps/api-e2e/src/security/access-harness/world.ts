/**
 * The world of one run of the model-based security test: the reference model (../access-model.ts) of its principals
 * and tokens, and what ties the model to the real system — each principal's keys (old keys of regenerated
 * applications kept as stale principals), the ids of applications and tokens, session nonces, reactors, the run's
 * plaintexts, the HTTP calls (retried on 429) and the trace printed with a failure. startWorld creates a run's world
 * on top of the shared pool.
 */
import { randomBytes } from 'node:crypto';
import { apiDynamic, type ApiResponse } from '@coffer/testing';
import {
  AccessModel,
  DEFAULT_CONTAINER,
  DEFAULT_FINGERPRINT_EXPRESSION,
  DEFAULT_SEARCH_INDEXES,
  type AppState,
  type Principal,
  type TenantName,
  type TokenState,
} from '../access-model';
import { InvariantViolation, type Stats } from './checks';
import { Authorize } from './commands';
import { FINGERPRINTS, INDEXES, MASKS, effectiveMask, grantsText, newData, secretsOf, type AppSpec, type TokenSpec, type WorldSpec } from './generators';
import type { Pool } from './pool';

// ---------------------------------------------------------------------------------------------------------------
// the world of one run

interface StaleKey {
  app: string;
  generation: number;
  key: string;
}

export class World {
  readonly model = new AccessModel();
  readonly tag = `r${randomBytes(6).toString('hex')}`;
  readonly trace: string[] = [];
  private readonly keys = new Map<string, string[]>();
  private readonly ids = new Map<string, string>();
  private readonly nonces = new Map<string, string>();
  private readonly stale: StaleKey[] = [];
  private readonly reactors = new Map<string, string>();
  /** plaintext → the label of its token: what the leak check looks for */
  readonly secrets = new Map<string, string>();
  /** per token: the fingerprint last seen and what it was computed from (model) */
  readonly fingerprints = new Map<string, { inputs: string; fingerprint: unknown }>();
  private keyTurn = 0;
  private sessionCount = 0;
  private step = 0;

  constructor(
    readonly pool: Pool,
    readonly stats: Stats,
  ) {
    for (const a of pool.apps) {
      this.model.apps.set(a.label, { label: a.label, tenant: a.tenant, type: a.type, grants: a.grants, deleted: false, generation: 0, pooled: true });
      this.keys.set(a.label, a.keys);
      this.ids.set(a.label, a.id);
    }
    this.log(
      `pool: ${pool.apps.map((a) => `${a.label} = tenant ${a.tenant} ${a.type}${a.type === 'management' ? '' : ` ${grantsText(a.grants)}`}`).join('; ')}`,
    );
  }

  // ----- HTTP

  admin(): string {
    return this.pool.admins[this.pool.adminTurn++ % this.pool.admins.length];
  }

  async call(method: string, path: string, opts: { key?: string; body?: unknown; contentType?: string } = {}): Promise<ApiResponse> {
    for (let attempt = 0; ; attempt++) {
      this.stats.requests++;
      const res = await apiDynamic(method, path, opts);
      if (res.status !== 429 || attempt >= 5) return res;
      this.stats.throttled++;
      await new Promise((r) => setTimeout(r, 1000 * Math.min(5, Number(res.headers.get('retry-after') ?? 1))));
    }
  }

  keyOf(p: Principal): string {
    if (p.kind === 'stale') return this.stale.find((s) => s.app === p.app && s.generation === p.generation)?.key as string;
    const keys = this.keys.get(p.kind === 'app' ? p.app : p.session) as string[];
    return keys[this.keyTurn++ % keys.length];
  }

  // ----- principals

  principals(): Principal[] {
    return [
      ...[...this.model.apps.keys()].map((app): Principal => ({ kind: 'app', app })),
      ...[...this.model.sessions.keys()].map((session): Principal => ({ kind: 'session', session })),
      ...this.stale.map((s): Principal => ({ kind: 'stale', app: s.app, generation: s.generation })),
    ];
  }
  /**
   * `n` = group × 1000 + index: group 0 any principal, 1 a session, 2 an application of the run, 3 a principal whose
   * key works and that the model lets do the operation (`able`), so that allowed paths are exercised as much as refusals.
   */
  principal(n: number, able?: (p: Principal) => boolean): Principal {
    const i = n % 1000;
    const group = Math.floor(n / 1000);
    if (group === 3 && able) {
      const candidates = this.principals().filter((p) => this.model.keyState(p) === 'valid' && able(p));
      if (candidates.length) return candidates[i % candidates.length];
    }
    const sessions = [...this.model.sessions.keys()];
    if (group === 1 && sessions.length) return { kind: 'session', session: sessions[i % sessions.length] };
    if (group === 2) {
      const apps = this.runApps();
      return { kind: 'app', app: apps[i % apps.length].label };
    }
    const all = this.principals();
    return all[i % all.length];
  }
  /** a private application: `n` ≥ 2000 prefers the run's own (those that get restricted, deleted, regenerated) */
  privateApp(n: number): Principal {
    const all = [...this.model.apps.values()].filter((a) => a.type === 'private');
    const own = all.filter((a) => !a.pooled);
    const from = n >= 2000 && own.length ? own : all;
    return { kind: 'app', app: from[(n % 1000) % from.length].label };
  }
  publicApp(i: number): Principal {
    const all = [...this.model.apps.values()].filter((a) => a.type === 'public');
    return { kind: 'app', app: all[i % all.length].label };
  }
  runApps(): AppState[] {
    return [...this.model.apps.values()].filter((a) => !a.pooled);
  }
  token(i: number): TokenState {
    return this.model.tokens[i % this.model.tokens.length];
  }
  /** the token exists in the principal's tenant */
  sees(p: Principal, t: TokenState): boolean {
    return !t.deleted && this.model.tenantOf(p) === t.tenant;
  }
  describe(p: Principal): string {
    if (p.kind === 'stale') return `${p.app}(old key gen ${p.generation})`;
    if (p.kind === 'session') return p.session;
    return p.app;
  }
  ownerOf(tenant: TenantName): Principal {
    return { kind: 'app', app: tenant === 'A' ? 'owner' : 'other' };
  }

  log(line: string): void {
    this.trace.push(line);
  }

  // ----- setup

  async addApp(spec: AppSpec): Promise<void> {
    const label = `app${this.runApps().length}`;
    const res = await this.call('POST', '/applications', { key: this.admin(), body: { name: `security ${label}`, type: spec.type, ...spec.grants } });
    if (res.status !== 201) throw new Error(`setup: application ${JSON.stringify(spec)} refused: ${res.status} ${res.text}`);
    this.model.apps.set(label, { label, tenant: 'A', type: spec.type, grants: spec.grants, deleted: false, generation: 0, pooled: false });
    this.keys.set(label, [res.body.key]);
    this.ids.set(label, res.body.id);
    this.log(`setup: ${label} = ${spec.type} ${grantsText(spec.grants)}`);
  }

  async addSeed(spec: TokenSpec, by: 'owner' | 'other'): Promise<void> {
    const p: Principal = { kind: 'app', app: by };
    const draft = this.draft(spec, p);
    const res = await this.call('POST', '/tokens', { key: this.keyOf(p), body: this.createBody(draft, spec) });
    if (res.status !== 201) throw new Error(`setup: seed token refused: ${res.status} ${res.text}`);
    draft.id = res.body.id;
    this.model.tokens.push(draft);
    this.log(`setup: ${draft.label} = ${by} creates ${draft.type} in ${draft.container} mask ${JSON.stringify(draft.mask)} (${draft.id})`);
  }

  async addSession(by: Principal, body: { session_key: string; nonce: string }): Promise<string> {
    const label = `s${this.sessionCount++}`;
    const app = this.model.app((by as { app: string }).app);
    this.model.sessions.set(label, { label, tenant: app.tenant, publicApp: app.label, publicGeneration: app.generation, authorized: false });
    this.keys.set(label, [body.session_key]);
    this.nonces.set(label, body.nonce);
    return label;
  }

  draft(spec: TokenSpec, p: Principal): TokenState {
    const data = newData(spec.type);
    const draft: TokenState = {
      label: `t${this.model.tokens.length}`,
      tenant: this.model.tenantOf(p),
      id: '',
      type: spec.type,
      data,
      mask: effectiveMask(spec.type, spec.mask),
      container: spec.container ?? DEFAULT_CONTAINER[spec.type],
      deleted: false,
      metadata: { run: this.tag },
      searchIndexes: spec.indexes !== undefined ? INDEXES[spec.type][spec.indexes % INDEXES[spec.type].length] : DEFAULT_SEARCH_INDEXES[spec.type],
      fingerprintExpression:
        spec.fingerprint !== undefined ? FINGERPRINTS[spec.type][spec.fingerprint % FINGERPRINTS[spec.type].length] : DEFAULT_FINGERPRINT_EXPRESSION,
    };
    this.remember(draft.label, data);
    return draft;
  }

  remember(label: string, data: unknown): void {
    for (const s of secretsOf(data)) this.secrets.set(s, label);
  }

  createBody(draft: TokenState, spec: TokenSpec): Record<string, unknown> {
    const mask = MASKS[spec.type][spec.mask % MASKS[spec.type].length];
    return {
      type: draft.type,
      data: draft.data,
      ...(spec.container ? { containers: [spec.container] } : {}),
      ...(mask !== undefined ? { mask } : {}),
      ...(spec.indexes !== undefined ? { search_indexes: draft.searchIndexes } : {}),
      ...(spec.fingerprint !== undefined ? { fingerprint_expression: draft.fingerprintExpression } : {}),
      metadata: { run: this.tag },
    };
  }

  // ----- trace and statistics

  count(kind: string, n = 1): void {
    this.stats.checks += n;
    this.stats.byCheck[kind] = (this.stats.byCheck[kind] ?? 0) + n;
  }

  fail(category: string, message: string): never {
    throw new InvariantViolation(category, `${message}\n  sequence (shrunk if this is the final report):\n    ${this.trace.join('\n    ')}`);
  }

  begin(op: string, text: string): void {
    this.stats.operations++;
    this.stats.byOp[op] = (this.stats.byOp[op] ?? 0) + 1;
    this.log(`#${++this.step} ${text}`);
  }

  // ----- reactors

  async reactorFor(app: AppState): Promise<string | { refused: number }> {
    const cached = app.pooled ? this.pool.reactors.get(app.label) : this.reactors.get(app.label);
    if (cached) return cached;
    const res = await this.call('POST', '/reactors', {
      key: this.admin(),
      body: { name: `svc as ${app.label}`, configuration: {}, formula: { id: this.pool.formulaId }, application: { id: this.ids.get(app.label) } },
    });
    if (res.status !== 201) return { refused: res.status };
    (app.pooled ? this.pool.reactors : this.reactors).set(app.label, res.body.id);
    return res.body.id;
  }

  appId(label: string): string {
    return this.ids.get(label) as string;
  }
  nonceOf(session: string): string {
    return this.nonces.get(session) as string;
  }
  setKey(label: string, key: string, generation: number): void {
    const old = (this.keys.get(label) as string[])[0];
    this.stale.push({ app: label, generation, key: old });
    this.keys.set(label, [key]);
  }
}

/** Creates the run's applications, seed tokens and pending sessions. */
export async function startWorld(pool: Pool, spec: WorldSpec, stats: Stats): Promise<World> {
  const w = new World(pool, stats);
  for (const a of spec.apps) await w.addApp(a);
  for (const s of spec.seeds) await w.addSeed(s, 'owner');
  if (spec.otherSeed) await w.addSeed({ type: 'token', mask: 1 }, 'other');
  for (let i = 0; i < spec.pendingSessions; i++) {
    const by: Principal = { kind: 'app', app: 'app0' };
    const res = await w.call('POST', '/sessions', { key: w.keyOf(by) });
    if (res.status !== 201) throw new Error(`setup: session ${res.status} ${res.text}`);
    const label = await w.addSession(by, res.body);
    w.log(`setup: ${label} = pending session of app0`);
  }
  for (const a of spec.authorizedSessions) {
    const by: Principal = { kind: 'app', app: 'app0' };
    const res = await w.call('POST', '/sessions', { key: w.keyOf(by) });
    if (res.status !== 201) throw new Error(`setup: session ${res.status} ${res.text}`);
    const label = await w.addSession(by, res.body);
    w.log(`setup: ${label} = session of app0`);
    await new Authorize(a.by, false, w.model.sessions.size - 1, a.grants, false, true).run(w, w);
  }
  return w;
}
