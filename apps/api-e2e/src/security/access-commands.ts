/**
 * The model-based security test's harness: a shared pool (two tenants, pooled applications, a formula), the per-run
 * world (fresh applications, sessions and tokens), the fast-check commands, and the checks run after every step
 * against the reference model of access-model.ts.
 *
 * Checks after every step (each counted):
 * - status: the reply's status is one the model allows (allowed vs 401/403/404/400/409);
 * - data: every `data` in the reply is exactly what the model's decision gives (revealed = plaintext, masked = the
 *   evaluated mask, redacted = no key) — lists and search also by their exact set of ids;
 * - leak: no plaintext of any token of the run appears anywhere else in any reply (errors included);
 * - state: after every write attempt, the token as its tenant's all-powerful application sees it (data, mask,
 *   container, existence) equals the model — a refused write changed nothing;
 * - escalation (invariant 2): after a successful write by P, every other principal reads the token exactly as the
 *   model says, and never more revealingly than before unless P could reveal it.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { api, createTenant, type ApiResponse, apiDynamic } from '@coffer/testing';
import {
  AccessModel,
  DEFAULT_CONTAINER,
  DEFAULT_FINGERPRINT_EXPRESSION,
  DEFAULT_MASK,
  DEFAULT_SEARCH_INDEXES,
  MANAGEMENT_PERMISSIONS,
  PUBLIC_PERMISSIONS,
  TOKEN_PERMISSIONS,
  TRANSFORMS,
  acceptableData,
  deepEqual,
  disclosure,
  indexValues,
  lower,
  rankOf,
  render,
  type Alt,
  type AppState,
  type AppType,
  type Condition,
  type DataExpectation,
  type Grants,
  type Principal,
  type Rule,
  type TenantName,
  type TokenPatch,
  type TokenPermission,
  type TokenState,
  type TokenType,
  type Transform,
} from './access-model';

// ---------------------------------------------------------------------------------------------------------------
// vocabulary of the generated worlds

export const RULE_CONTAINERS = ['/', '/a/', '/a/x/', '/b/', '/pci/', '/pci/high/', '/general/', '/pii/high/'];
export const TOKEN_CONTAINERS = ['/a/', '/a/x/', '/b/', '/pci/high/', '/general/high/', '/pii/high/'];
export const TOKEN_TYPES: TokenType[] = ['token', 'card', 'social_security_number'];
/** masks per type; index 0 = none given (the type's default) */
export const MASKS: Record<TokenType, unknown[]> = {
  token: [undefined, '{{ data | reveal_last: 2 }}', '{{ data }}', 'XXXX-{{ data | reveal_last: 3 }}'],
  card: [
    undefined,
    { number: '{{ data.number | reveal_last: 2 }}' },
    { number: '{{ data.number }}' },
    { number: '{{ data.number | reveal_last: 4 }}', expiration_year: '{{ data.expiration_year }}' },
  ],
  social_security_number: [undefined, '{{ data | reveal_last: 2 }}', '{{ data }}', 'XXX-XX-XXXX'],
};
const effectiveMask = (type: TokenType, i: number) => MASKS[type][i % MASKS[type].length] ?? DEFAULT_MASK[type];
/**
 * Search indexes and fingerprint expressions per type, chosen at create or sent by a PATCH: expressions that try to
 * reach the plaintext (whole, a prefix, the last four) — what a key without reveal must not gain an oracle on.
 */
const PLAIN: Record<TokenType, string> = { token: 'data', card: 'data.number', social_security_number: 'data' };
export const INDEXES = Object.fromEntries(
  TOKEN_TYPES.map((type) => [type, [[], [`{{ ${PLAIN[type]} }}`], [`{{ ${PLAIN[type]} | slice: 0, 6 }}`], [`{{ ${PLAIN[type]} | last4 }}`]]]),
) as Record<TokenType, string[][]>;
export const FINGERPRINTS = Object.fromEntries(
  TOKEN_TYPES.map((type) => [type, [`{{ ${PLAIN[type]} | slice: 0, 6 }}`, `{{ metadata.note }}{{ ${PLAIN[type]} }}`, `{{ ${PLAIN[type]} | last4 }}`]]),
) as Record<TokenType, string[]>;
/** metadata patches: text that looks like an expression is stored literally, never evaluated; null removes the key */
export const METADATA_PATCHES: Array<Record<string, string | null>> = [
  { note: '{{ data }}' },
  { note: '{{ data | slice: 0, 6 }}' },
  { note: null },
  { note: 'plain note' },
];
/** what a `data:` search probes: the plaintext, a prefix, the last four, without dashes */
export type Probe = 'full' | 'slice6' | 'last4' | 'nodash';
export const PROBES: Probe[] = ['full', 'slice6', 'last4', 'nodash'];
export function probeValue(t: TokenState, probe: Probe): string {
  const plain = t.type === 'card' ? String((t.data as { number: string }).number) : String(t.data);
  if (probe === 'slice6') return plain.slice(0, 6);
  if (probe === 'last4') return plain.slice(-4);
  if (probe === 'nodash') return plain.split('-').join('');
  return plain;
}

export type SearchKind = 'all' | 'type:card' | 'type:token' | 'container:/a/';

type ConditionSpec = Condition | { attribute: 'id'; operator: 'equals' | 'starts_with'; tokenRef: number };
export interface RuleSpec extends Omit<Rule, 'conditions'> {
  conditions?: ConditionSpec[];
}
export type GrantsSpec = { permissions: TokenPermission[] } | { rules: RuleSpec[] };

export interface AppSpec {
  type: 'public' | 'private';
  grants: Grants;
}
export interface TokenSpec {
  type: TokenType;
  container?: string;
  mask: number;
  /** index into INDEXES; undefined = none sent (the type's default) */
  indexes?: number;
  /** index into FINGERPRINTS; undefined = none sent (the default) */
  fingerprint?: number;
}
export interface WorldSpec {
  apps: AppSpec[];
  seeds: TokenSpec[];
  otherSeed: boolean;
  pendingSessions: number;
  /** sessions of app0 authorized at setup (through the same checks as the authorize command) */
  authorizedSessions: Array<{ by: number; grants: GrantsSpec }>;
}

// ---------------------------------------------------------------------------------------------------------------
// arbitraries

const ruleArb = (allowed: readonly TokenPermission[]) =>
  fc.record({
    priority: fc.integer({ min: 1, max: 40 }),
    container: fc.constantFrom(...RULE_CONTAINERS),
    transform: fc.constantFrom(...TRANSFORMS),
    permissions: fc.subarray([...allowed], { minLength: 1 }),
  });

export const grantsArb = (type: 'public' | 'private'): fc.Arbitrary<Grants> => {
  const allowed = type === 'public' ? PUBLIC_PERMISSIONS : TOKEN_PERMISSIONS;
  return fc.oneof(
    fc.record({ permissions: fc.subarray([...allowed]) }),
    fc.record({ rules: fc.uniqueArray(ruleArb(allowed), { minLength: 1, maxLength: 3, selector: (r) => r.priority }) }),
  );
};

const conditionArb: fc.Arbitrary<ConditionSpec> = fc.oneof(
  fc.record({
    attribute: fc.constant('container' as const),
    operator: fc.constantFrom('equals' as const, 'starts_with' as const),
    value: fc.constantFrom(...RULE_CONTAINERS, ...TOKEN_CONTAINERS),
  }),
  fc.record({ attribute: fc.constant('id' as const), operator: fc.constantFrom('equals' as const, 'starts_with' as const), tokenRef: fc.nat(50) }),
);

export const sessionGrantsArb: fc.Arbitrary<GrantsSpec> = fc.oneof(
  fc.record({ permissions: fc.subarray([...TOKEN_PERMISSIONS], { minLength: 1 }) }),
  fc.record({ rules: fc.uniqueArray(ruleArb(TOKEN_PERMISSIONS), { minLength: 1, maxLength: 3, selector: (r) => r.priority }) }),
  fc.record({
    rules: fc.uniqueArray(
      fc.record({
        priority: fc.integer({ min: 1, max: 40 }),
        conditions: fc.array(conditionArb, { minLength: 1, maxLength: 2 }),
        transform: fc.constantFrom(...TRANSFORMS),
        permissions: fc.subarray([...TOKEN_PERMISSIONS], { minLength: 1 }),
      }),
      { minLength: 1, maxLength: 2, selector: (r) => r.priority },
    ),
  }),
);

export const appSpecArb = (type: 'public' | 'private'): fc.Arbitrary<AppSpec> => grantsArb(type).map((grants) => ({ type, grants }));

const tokenSpecArb: fc.Arbitrary<TokenSpec> = fc.record({
  type: fc.constantFrom(...TOKEN_TYPES),
  container: fc.option(fc.constantFrom(...TOKEN_CONTAINERS), { nil: undefined }),
  mask: fc.nat(3),
  // often explicit: `[]` on a type with default indexes is what a later patch must not undo
  indexes: fc.option(fc.nat(3), { nil: undefined, freq: 2 }),
  fingerprint: fc.option(fc.nat(2), { nil: undefined }),
});

export const worldSpecArb: fc.Arbitrary<WorldSpec> = fc.record({
  apps: fc
    .tuple(appSpecArb('public'), appSpecArb('private'), fc.array(fc.oneof(appSpecArb('public'), appSpecArb('private')), { maxLength: 2 }))
    .map(([a, b, rest]) => [a, b, ...rest]),
  seeds: fc.array(tokenSpecArb, { minLength: 1, maxLength: 3 }),
  otherSeed: fc.boolean(),
  pendingSessions: fc.nat(1),
  authorizedSessions: fc.array(fc.record({ by: fc.nat(3999), grants: sessionGrantsArb }), { maxLength: 2 }),
});

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
// the shared pool: created once per test file, reused by every run

const SVC_FORMULA = `module.exports = async function (req) {
  const a = JSON.parse(Buffer.from(req.args.q, 'base64').toString('utf8'));
  if (a.op === 'tokenize') return { tokenize: { t: a.token } };
  try {
    const body = a.op === 'retrieve' ? await req.svc.tokens.retrieve(a.id) : await req.svc.tokens.update(a.id, a.patch);
    return { raw: { status: 200, body } };
  } catch (e) {
    return { raw: { status: e.status || 500, error: e.data === undefined ? null : e.data } };
  }
};`;

interface PooledApp {
  label: string;
  tenant: TenantName;
  type: AppType;
  grants: Grants;
  id: string;
  /** management principals rotate over several identical applications (rate limit 200/min each) */
  keys: string[];
}

export interface Pool {
  tenantA: string;
  tenantB: string;
  admins: string[];
  apps: PooledApp[];
  formulaId: string;
  /** reactors of pooled applications, by application label */
  reactors: Map<string, string>;
  adminTurn: number;
}

const ALL_TOKEN = [...TOKEN_PERMISSIONS];

async function mustCreate(key: string, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const res = await api('POST', '/applications', { key, body });
  if (res.status !== 201) throw new Error(`pool: could not create application ${JSON.stringify(body)}: ${res.status} ${res.text}`);
  return { id: res.body.id, key: res.body.key };
}

export async function createPool(): Promise<Pool> {
  const a = await createTenant('security-a');
  const b = await createTenant('security-b');
  const admins: string[] = [];
  for (let i = 0; i < 8; i++)
    admins.push((await mustCreate(a.managementKey, { name: `admin ${i}`, type: 'management', permissions: [...MANAGEMENT_PERMISSIONS] })).key);
  const specs: Array<Omit<PooledApp, 'id' | 'keys'> & { copies?: number; via: string }> = [
    { label: 'owner', tenant: 'A', type: 'private', grants: { permissions: ALL_TOKEN }, via: a.managementKey },
    { label: 'mgmt', tenant: 'A', type: 'management', grants: { permissions: [] }, via: a.managementKey, copies: 4 },
    { label: 'user', tenant: 'A', type: 'private', grants: { permissions: ['token:use'] }, via: a.managementKey },
    {
      label: 'ruled',
      tenant: 'A',
      type: 'private',
      grants: {
        rules: [
          { priority: 1, container: '/pci/', transform: 'mask', permissions: ['token:read', 'token:search', 'token:update'] },
          { priority: 2, container: '/a/x/', transform: 'redact', permissions: ['token:read'] },
          { priority: 3, container: '/a/', transform: 'reveal', permissions: ['token:read', 'token:use', 'token:create', 'token:update'] },
          { priority: 4, container: '/', transform: 'mask', permissions: ['token:create', 'token:search'] },
        ],
      },
      via: a.managementKey,
    },
    { label: 'other', tenant: 'B', type: 'private', grants: { permissions: ALL_TOKEN }, via: b.managementKey },
  ];
  const apps: PooledApp[] = [];
  for (const s of specs) {
    const keys: string[] = [];
    let id = '';
    for (let i = 0; i < (s.copies ?? 1); i++) {
      const body = s.type === 'management' ? { name: s.label, type: s.type, permissions: ['log:read'] } : { name: s.label, type: s.type, ...s.grants };
      const created = await mustCreate(s.via, body);
      keys.push(created.key);
      id ||= created.id;
    }
    apps.push({ label: s.label, tenant: s.tenant, type: s.type, grants: s.grants, id, keys });
  }
  const f = await api('POST', '/reactor-formulas', { key: admins[0], body: { name: 'svc proxy', type: 'private', code: SVC_FORMULA } });
  if (f.status !== 201) throw new Error(`pool: formula ${f.status} ${f.text}`);
  return { tenantA: a.tenantId, tenantB: b.tenantId, admins, apps, formulaId: f.body.id, reactors: new Map(), adminTurn: 0 };
}

// ---------------------------------------------------------------------------------------------------------------
// data generation

function luhn16(prefix: string): string {
  let body = prefix;
  while (body.length < 15) body += String(randomBytes(1)[0] % 10);
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = Number(body[14 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

function newData(type: TokenType): unknown {
  const n = (max: number) => randomBytes(4).readUInt32BE(0) % max;
  if (type === 'card') return { number: luhn16('4'), expiration_month: 1 + n(12), expiration_year: 2030 + n(6) };
  if (type === 'social_security_number') {
    const area = String(100 + n(500)).padStart(3, '0');
    return `${area === '666' ? '667' : area}-${String(10 + n(90))}-${String(1000 + n(9000))}`;
  }
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `sec${Array.from({ length: 12 }, () => alphabet[n(alphabet.length)]).join('')}`;
}

/** the strings that must never appear outside a checked `data` */
function secretsOf(data: unknown): string[] {
  if (typeof data === 'string') return [data];
  if (data && typeof data === 'object' && typeof (data as { number?: unknown }).number === 'string') return [(data as { number: string }).number];
  return [];
}

// ---------------------------------------------------------------------------------------------------------------
// the world of one run

interface StaleKey {
  app: string;
  generation: number;
  key: string;
}

const grantsText = (g: Grants | GrantsSpec) =>
  'permissions' in g
    ? `permissions ${JSON.stringify(g.permissions)}`
    : `rules ${(g.rules as Array<Rule | RuleSpec>)
        .map((r) => `{p${r.priority} ${r.container ?? JSON.stringify(r.conditions)} ${r.transform} ${r.permissions.join(',')}}`)
        .join(' ')}`;

export class World {
  readonly model = new AccessModel();
  readonly tag = `r${randomBytes(6).toString('hex')}`;
  readonly trace: string[] = [];
  private readonly keys = new Map<string, string[]>();
  private readonly ids = new Map<string, string>();
  private readonly nonces = new Map<string, string>();
  private readonly stale: StaleKey[] = [];
  private readonly reactors = new Map<string, string>();
  private readonly secrets = new Map<string, string>();
  /** per token: the fingerprint last seen and what it was computed from (model) */
  private readonly fingerprints = new Map<string, { inputs: string; fingerprint: unknown }>();
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

  // ----- checks

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

  /** The alternative the reply matches (by status), or a failure. */
  match(op: string, alts: Alt[], res: ApiResponse): Alt {
    this.count('status');
    const alt = alts.find((a) => a.status === res.status);
    const outcome = `${op} ${res.status}`;
    this.stats.byOutcome[outcome] = (this.stats.byOutcome[outcome] ?? 0) + 1;
    if (alt) {
      const why = `${outcome} ${alt.why}`;
      this.stats.byWhy[why] = (this.stats.byWhy[why] ?? 0) + 1;
    }
    this.trace[this.trace.length - 1] += ` → ${res.status} (model: ${alts.map((a) => `${a.status} ${a.why}`).join(' | ')})`;
    if (!alt) this.fail(`${op}/status`, `status ${res.status} not allowed by the model: ${res.text.slice(0, 400)}`);
    return alt;
  }

  /** The `data` of one reply against the model's expectation. */
  checkData(op: string, what: string, body: Record<string, unknown> | undefined, e: DataExpectation): void {
    this.count('data');
    const present = !!body && typeof body === 'object' && 'data' in body;
    const value = present ? (body as Record<string, unknown>)['data'] : undefined;
    const ok = acceptableData(e).some((c) => c.present === present && (!c.present || deepEqual(c.value, value)));
    if (!ok) {
      const want = 'exact' in e ? `${e.exact}: ${JSON.stringify(render(e.exact, e.token))}` : `at most ${e.atMost}`;
      this.fail(`${op}/data`, `${what}: data ${present ? JSON.stringify(value) : '(absent)'} but the model allows ${want}`);
    }
    if (body && typeof body === 'object') {
      this.count('state');
      if (body['id'] !== e.token.id && e.token.id) this.fail(`${op}/data`, `${what}: id ${String(body['id'])}, expected ${e.token.id}`);
      if (!deepEqual(body['containers'], [e.token.container]))
        this.fail(`${op}/state`, `${what}: containers ${JSON.stringify(body['containers'])}, model ${e.token.container}`);
    }
  }

  /** No plaintext of the run outside the checked `data` values. */
  checkLeak(op: string, res: ApiResponse, checkedData: boolean): void {
    this.count('leak');
    let rest: unknown = res.body;
    if (checkedData) rest = stripData(res.body);
    const text = typeof rest === 'string' ? rest : JSON.stringify(rest ?? '');
    for (const [secret, label] of this.secrets) {
      if (text.includes(secret)) this.fail(`${op}/leak`, `the plaintext of ${label} appears outside a checked data value: ${text.slice(0, 400)}`);
    }
  }

  /** Checks a single-token reply end to end and applies the matched outcome to the model. */
  verify(op: string, alts: Alt[], res: ApiResponse, what: string): Alt {
    const alt = this.match(op, alts, res);
    if (alt.data) this.checkData(op, what, res.body, alt.data);
    if (alt.items) this.checkItems(op, res, alt.items);
    if (alt.body !== undefined) {
      this.count('data');
      if (!deepEqual(res.body, alt.body)) this.fail(`${op}/data`, `${what}: reply ${res.text.slice(0, 300)} but the model expects ${JSON.stringify(alt.body)}`);
    }
    // a body compared whole (detokenize) has nothing unchecked left; otherwise everything but checked data
    if (alt.body === undefined) this.checkLeak(op, res, !!alt.data || !!alt.items);
    else this.count('leak');
    alt.effect?.();
    return alt;
  }

  checkItems(op: string, res: ApiResponse, items: Map<string, DataExpectation>): void {
    this.count('data');
    const got: Array<Record<string, unknown>> = Array.isArray(res.body?.data) ? res.body.data : [];
    const gotIds = got.map((t) => String(t['id'])).sort();
    const wantIds = [...items.keys()].sort();
    if (!deepEqual(gotIds, wantIds)) {
      const name = (id: string) => this.model.tokens.find((t) => t.id === id)?.label ?? id;
      this.fail(`${op}/data`, `listed ${JSON.stringify(gotIds.map(name))} but the model allows exactly ${JSON.stringify(wantIds.map(name))}`);
    }
    for (const t of got) this.checkData(op, `item ${this.model.tokens.find((x) => x.id === t['id'])?.label}`, t, items.get(String(t['id'])) as DataExpectation);
  }

  /** State check: the token as its tenant's all-powerful application sees it equals the model. */
  async checkState(op: string, t: TokenState): Promise<void> {
    const owner = this.ownerOf(t.tenant);
    const res = await this.call('GET', `/tokens/${t.id}`, { key: this.keyOf(owner) });
    this.count('state');
    if (t.deleted) {
      if (res.status !== 404) this.fail(`${op}/state`, `${t.label} should be deleted, ${owner.kind === 'app' ? owner.app : ''} reads ${res.status}`);
      return;
    }
    if (res.status !== 200) this.fail(`${op}/state`, `${t.label}: the owner reads ${res.status} ${res.text.slice(0, 200)}`);
    const b = res.body;
    const mask = b.mask === undefined || b.mask === null ? DEFAULT_MASK[t.type] : b.mask;
    const problems: string[] = [];
    if (!deepEqual(b.data, t.data)) problems.push(`data ${JSON.stringify(b.data)} ≠ model ${JSON.stringify(t.data)}`);
    if (!deepEqual(mask, t.mask === undefined ? DEFAULT_MASK[t.type] : t.mask))
      problems.push(`mask ${JSON.stringify(b.mask)} ≠ model ${JSON.stringify(t.mask)}`);
    if (!deepEqual(b.containers, [t.container])) problems.push(`containers ${JSON.stringify(b.containers)} ≠ model ${t.container}`);
    if (!deepEqual(b.metadata ?? {}, t.metadata)) problems.push(`metadata ${JSON.stringify(b.metadata)} ≠ model ${JSON.stringify(t.metadata)}`);
    if (!deepEqual(b.search_indexes ?? [], t.searchIndexes))
      problems.push(`search_indexes ${JSON.stringify(b.search_indexes)} ≠ model ${JSON.stringify(t.searchIndexes)}`);
    if (b.fingerprint_expression !== t.fingerprintExpression)
      problems.push(`fingerprint_expression ${JSON.stringify(b.fingerprint_expression)} ≠ model ${JSON.stringify(t.fingerprintExpression)}`);
    // the fingerprint is a function of the type, the expression, the data and (when the expression names it) the metadata
    const inputs = JSON.stringify([t.type, t.fingerprintExpression, t.data, t.fingerprintExpression.includes('metadata') ? t.metadata : null]);
    const seen = this.fingerprints.get(t.label);
    if (seen && seen.inputs === inputs && seen.fingerprint !== b.fingerprint) problems.push('the fingerprint changed although its inputs did not');
    this.fingerprints.set(t.label, { inputs, fingerprint: b.fingerprint });
    if (problems.length) this.fail(`${op}/state`, `${t.label} as stored: ${problems.join('; ')}`);
  }

  /**
   * Invariant 2 after a successful write by `writer` on `t`: every other principal of the tenant reads exactly what
   * the model says, and — unless the writer could reveal t — never more than it could before the write.
   */
  async sweep(op: string, writer: Principal, t: TokenState, before: Map<Principal, number>, writerCouldReveal: boolean): Promise<void> {
    const observers = [...before.keys()];
    const replies = await Promise.all(observers.map((q) => this.call('GET', `/tokens/${t.id}`, { key: this.keyOf(q) })));
    observers.forEach((q, i) => {
      const res = replies[i];
      const alts = this.model.expectGet(q, t);
      this.count('escalation');
      const alt = alts.find((a) => a.status === res.status);
      const who = `${this.describe(q)} reading ${t.label} after ${this.describe(writer)}'s write`;
      if (!alt) this.fail(`${op}/escalation`, `${who}: ${res.status}, model ${alts.map((a) => a.status).join('|')}`);
      const present = res.status === 200 && 'data' in res.body;
      const after = disclosure(present, present ? res.body.data : undefined, t);
      if (!writerCouldReveal && after > (before.get(q) as number)) {
        this.fail(
          `${op}/escalation`,
          `${who}: disclosure rose from ${before.get(q)} to ${after} (0 none, 1 mask, 2 plaintext) although the writer cannot reveal ${t.label}`,
        );
      }
      if (alt.data) this.checkData(op, who, res.body, alt.data);
      this.checkLeak(op, res, !!alt.data);
    });
  }

  /**
   * The search oracle after a successful write by `writer` on `t`: every principal that may search finds `t` by
   * `data:` for exactly the probes the model says (its indexes evaluated over its data), and — unless the writer could
   * reveal t — for no probe of the plaintext it could not confirm before the write (`before`: t as it was).
   */
  async oracleSweep(op: string, writer: Principal, t: TokenState, before: TokenState, writerCouldReveal: boolean): Promise<void> {
    if (t.deleted) return;
    const searchers = this.principals().filter(
      (q) => this.model.keyState(q) === 'valid' && this.model.tenantOf(q) === t.tenant && this.model.holds(q, 'token:search') === 'yes',
    );
    for (const q of searchers) {
      for (const probe of PROBES) {
        const value = probeValue(t, probe);
        const res = await this.call('POST', '/tokens/search', {
          key: this.keyOf(q),
          body: { query: `metadata.run:${this.tag} AND data:"${value}"`, size: 100 },
        });
        const who = `${this.describe(q)} searching data:${probe} of ${t.label} after ${this.describe(writer)}'s write`;
        this.count('oracle');
        const alts = this.model.expectSearchData(q, value);
        const alt = alts.find((a) => a.status === res.status);
        if (!alt) this.fail(`${op}/oracle`, `${who}: ${res.status}, model ${alts.map((a) => a.status).join('|')}`);
        const found = res.status === 200 && Array.isArray(res.body?.data) && res.body.data.some((x: { id: string }) => x.id === t.id);
        const couldBefore = !before.deleted && this.model.decide(q, 'token:search', before).allowed && indexValues(before).includes(value);
        if (found && !couldBefore && !writerCouldReveal && deepEqual(before.data, t.data)) {
          this.fail(`${op}/oracle`, `${who}: found by data:${probe} although it was not before and the writer cannot reveal ${t.label}`);
        }
        if (alt.items) this.checkItems(`${op}/oracle`, res, alt.items);
        this.checkLeak(op, res, true);
      }
    }
  }

  /** The observers of a write and what each could see before it (model). */
  observersOf(writer: Principal, t: TokenState): Map<Principal, number> {
    const out = new Map<Principal, number>();
    for (const q of this.principals()) {
      if (deepEqual(q, writer) || this.model.keyState(q) !== 'valid' || this.model.tenantOf(q) !== t.tenant) continue;
      if (this.model.holds(q, 'token:read') === 'no') continue;
      const d = this.model.decide(q, 'token:read', t);
      const r = d.allowed && !t.deleted ? render(d.transform, t) : { present: false as const };
      out.set(q, r.present ? disclosure(true, r.value, t) : 0);
    }
    return out;
  }

  /** End of run: each tenant's owner lists the run's tokens; exactly the model's live tokens, revealed. */
  async inventory(): Promise<void> {
    for (const tenant of ['A', 'B'] as TenantName[]) {
      const owner = this.ownerOf(tenant);
      const res = await this.call('GET', `/tokens?metadata.run=${this.tag}&size=100`, { key: this.keyOf(owner) });
      this.count('state');
      const got = (res.body?.data ?? []).map((t: { id: string }) => t.id).sort();
      const want = this.model
        .live(tenant)
        .map((t) => t.id)
        .sort();
      if (res.status !== 200 || !deepEqual(got, want))
        this.fail('inventory/state', `tenant ${tenant} holds ${JSON.stringify(got)} (${res.status}), model ${JSON.stringify(want)}`);
    }
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

function stripData(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  if (Array.isArray((body as { data?: unknown }).data)) {
    return { ...(body as object), data: ((body as { data: unknown[] }).data as Array<Record<string, unknown>>).map((t) => ({ ...t, data: undefined })) };
  }
  return { ...(body as object), data: undefined };
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

// ---------------------------------------------------------------------------------------------------------------
// commands

type Cmd = fc.AsyncCommand<World, World>;

abstract class Step implements Cmd {
  abstract readonly name: string;
  check(_m: Readonly<World>): boolean {
    return true;
  }
  abstract run(_m: World, w: World): Promise<void>;
  abstract toString(): string;
}

class CreateToken extends Step {
  readonly name = 'create';
  constructor(
    readonly p: number,
    readonly spec: TokenSpec,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const p = creatorFor(w, this.p, this.spec);
    const draft = w.draft(this.spec, p);
    w.begin(this.name, `${w.describe(p)} POST /tokens ${draft.label}: ${draft.type} in ${draft.container} mask ${JSON.stringify(draft.mask)}`);
    const res = await w.call('POST', '/tokens', { key: w.keyOf(p), body: w.createBody(draft, this.spec) });
    if (res.status === 201) draft.id = res.body?.id;
    w.verify(this.name, w.model.expectCreate(p, draft), res, `create ${draft.label}`);
    if (res.status === 201) await w.checkState(this.name, draft);
  }
  toString() {
    return `create(p${this.p}, ${JSON.stringify(this.spec)})`;
  }
}

/** Picks principal `index`, preferring one the model lets create a token of `spec` in its container. */
function creatorFor(w: World, index: number, spec: TokenSpec) {
  const container = spec.container ?? DEFAULT_CONTAINER[spec.type];
  const probe: TokenState = {
    label: '',
    tenant: 'A',
    id: '',
    type: spec.type,
    data: null,
    mask: undefined,
    container,
    deleted: false,
    metadata: {},
    searchIndexes: [],
    fingerprintExpression: '',
  };
  return w.principal(index, (q) => w.model.decide(q, 'token:create', { ...probe, tenant: w.model.tenantOf(q) }).allowed);
}

/** POST /tokenize with one token object: the same decision as POST /tokens, the view under the same key, 200. */
class Tokenize extends Step {
  readonly name = 'tokenize';
  constructor(
    readonly p: number,
    readonly spec: TokenSpec,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const p = creatorFor(w, this.p, this.spec);
    const draft = w.draft(this.spec, p);
    w.begin(this.name, `${w.describe(p)} POST /tokenize ${draft.label}: ${draft.type} in ${draft.container} mask ${JSON.stringify(draft.mask)}`);
    const res = await w.call('POST', '/tokenize', { key: w.keyOf(p), body: { x: w.createBody(draft, this.spec) } });
    if (res.status === 200) draft.id = res.body?.x?.id;
    const alts = w.model.expectCreate(p, draft).map((a) => (a.status === 201 ? { ...a, status: 200 } : a));
    w.verify(this.name, alts, res.status === 200 ? { ...res, body: res.body?.x } : res, `tokenize ${draft.label}`);
    if (res.status === 200) await w.checkState(this.name, draft);
  }
  toString() {
    return `tokenize(p${this.p}, ${JSON.stringify(this.spec)})`;
  }
}

class GetToken extends Step {
  readonly name = 'get';
  constructor(
    readonly p: number,
    readonly t: number,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const t = w.token(this.t);
    const p = w.principal(this.p, (q) => w.sees(q, t) && w.model.decide(q, 'token:read', t).allowed);
    w.begin(this.name, `${w.describe(p)} GET ${t.label}`);
    const res = await w.call('GET', `/tokens/${t.id}`, { key: w.keyOf(p) });
    w.verify(this.name, w.model.expectGet(p, t), res, `GET ${t.label}`);
  }
  toString() {
    return `get(p${this.p}, t${this.t})`;
  }
}

/** v1 (offset pages) and v2 (cursor pages, metadata as a JSON object) list the same tokens the same way. */
class ListTokens extends Step {
  readonly name = 'list';
  constructor(
    readonly p: number,
    readonly v2: boolean,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const p = w.principal(this.p, (q) => w.model.holds(q, 'token:read') === 'yes');
    const path = this.v2 ? `/v2/tokens?metadata=${encodeURIComponent(JSON.stringify({ run: w.tag }))}&size=100` : `/tokens?metadata.run=${w.tag}&size=100`;
    w.begin(this.name, `${w.describe(p)} GET ${this.v2 ? '/v2/tokens' : '/tokens'}`);
    const res = await w.call('GET', path, { key: w.keyOf(p) });
    w.verify(this.name, w.model.expectList(p), res, 'list');
  }
  toString() {
    return `list${this.v2 ? 'V2' : ''}(p${this.p})`;
  }
}

class SearchTokens extends Step {
  readonly name = 'search';
  constructor(
    readonly p: number,
    readonly kind: SearchKind,
    readonly v2: boolean,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const p = w.principal(this.p, (q) => w.model.holds(q, 'token:search') === 'yes');
    const extra = this.kind === 'all' ? '' : this.kind === 'container:/a/' ? ' AND container:/a/*' : ` AND ${this.kind}`;
    const filter = (t: TokenState) =>
      this.kind === 'all' ? true : this.kind === 'container:/a/' ? t.container.startsWith('/a/') : t.type === this.kind.slice('type:'.length);
    const route = this.v2 ? '/v2/tokens/search' : '/tokens/search';
    w.begin(this.name, `${w.describe(p)} POST ${route} ${this.kind}`);
    const res = await w.call('POST', route, { key: w.keyOf(p), body: { query: `metadata.run:${w.tag}${extra}`, size: 100 } });
    w.verify(this.name, w.model.expectSearch(p, filter), res, 'search');
  }
  toString() {
    return `search${this.v2 ? 'V2' : ''}(p${this.p}, ${this.kind})`;
  }
}

class Detokenize extends Step {
  readonly name = 'detokenize';
  constructor(
    readonly p: number,
    readonly t: number,
    readonly t2: number | undefined,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const p = w.principal(this.p, (q) => w.sees(q, w.token(this.t)) && w.model.canReveal(q, w.token(this.t)));
    const refs = [{ key: 'x', token: w.token(this.t) }];
    if (this.t2 !== undefined && w.token(this.t2) !== refs[0].token) refs.push({ key: 'y', token: w.token(this.t2) });
    w.begin(this.name, `${w.describe(p)} POST /detokenize ${refs.map((r) => r.token.label).join(', ')}`);
    const body = Object.fromEntries(refs.map((r) => [r.key, `{{ ${r.token.id} }}`]));
    const res = await w.call('POST', '/detokenize', { key: w.keyOf(p), body });
    w.verify(this.name, w.model.expectDetokenize(p, refs), res, 'detokenize');
  }
  toString() {
    return `detokenize(p${this.p}, t${this.t}${this.t2 === undefined ? '' : `, t${this.t2}`})`;
  }
}

export interface PatchSpec {
  data: boolean;
  mask?: number;
  container?: string;
  /** index into METADATA_PATCHES */
  metadata?: number;
  /** index into INDEXES[type]; one past the end = null (the type's default) */
  indexes?: number;
  /** index into FINGERPRINTS[type]; one past the end = null (the default) */
  fingerprint?: number;
}

/** The merge-patch sent (a mask or container may equal the current one: that is no change). */
function resolvePatch(t: TokenState, spec: PatchSpec): TokenPatch {
  const patch: TokenPatch = {};
  if (spec.mask !== undefined) {
    const mask = effectiveMask(t.type, spec.mask);
    if (mask !== undefined) patch.mask = mask;
  }
  if (spec.container !== undefined) patch.containers = [spec.container];
  if (spec.metadata !== undefined) patch.metadata = METADATA_PATCHES[spec.metadata % METADATA_PATCHES.length];
  if (spec.indexes !== undefined) {
    const choices = INDEXES[t.type];
    const i = spec.indexes % (choices.length + 1);
    patch.search_indexes = i === choices.length ? null : choices[i];
  }
  if (spec.fingerprint !== undefined) {
    const choices = FINGERPRINTS[t.type];
    const i = spec.fingerprint % (choices.length + 1);
    patch.fingerprint_expression = i === choices.length ? null : choices[i];
  }
  if (spec.data || Object.keys(patch).length === 0) patch.data = newData(t.type);
  return patch;
}

/** A patch naming a field that decides what searches and fingerprints disclose. */
function patchesExposure(patch: TokenPatch): boolean {
  return patch.search_indexes !== undefined || patch.fingerprint_expression !== undefined || patch.metadata !== undefined;
}

/** `data:<value>` search for a probe of a token's plaintext: the oracle a search index opens, exactly as the model says. */
class SearchData extends Step {
  readonly name = 'search-data';
  constructor(
    readonly p: number,
    readonly t: number,
    readonly probe: Probe,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const t = w.token(this.t);
    const p = w.principal(this.p, (q) => w.sees(q, t) && w.model.decide(q, 'token:search', t).allowed);
    const value = probeValue(t, this.probe);
    w.begin(this.name, `${w.describe(p)} POST /tokens/search data:${this.probe} of ${t.label} (indexes ${JSON.stringify(t.searchIndexes)})`);
    const res = await w.call('POST', '/tokens/search', { key: w.keyOf(p), body: { query: `metadata.run:${w.tag} AND data:"${value}"`, size: 100 } });
    w.verify(this.name, w.model.expectSearchData(p, value), res, 'search by data');
  }
  toString() {
    return `searchData(p${this.p}, t${this.t}, ${this.probe})`;
  }
}

class PatchToken extends Step {
  readonly name = 'patch';
  constructor(
    readonly p: number,
    readonly t: number,
    readonly spec: PatchSpec,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const t = w.token(this.t);
    const p = w.principal(this.p, (q) => w.sees(q, t) && w.model.decide(q, 'token:update', t).allowed);
    const patch = resolvePatch(t, this.spec);
    if (patch.data !== undefined) w.remember(t.label, patch.data);
    w.begin(this.name, `${w.describe(p)} PATCH ${t.label} (${t.container}) ${JSON.stringify(patch)}`);
    const alts = w.model.expectPatch(p, t, patch);
    const valid = w.model.keyState(p) === 'valid' && w.model.tenantOf(p) === t.tenant;
    const couldReveal = valid && !t.deleted && w.model.canReveal(p, t);
    const observers = w.observersOf(p, t);
    const before = { ...t };
    const res = await w.call('PATCH', `/tokens/${t.id}`, { key: w.keyOf(p), body: patch, contentType: 'application/merge-patch+json' });
    const alt = w.verify(this.name, alts, res, `PATCH ${t.label}`);
    await w.checkState(this.name, t);
    if (alt.status === 200) {
      await w.sweep(this.name, p, t, observers, couldReveal);
      if (patchesExposure(patch)) await w.oracleSweep(this.name, p, t, before, couldReveal);
    }
  }
  toString() {
    return `patch(p${this.p}, t${this.t}, ${JSON.stringify(this.spec)})`;
  }
}

class DeleteToken extends Step {
  readonly name = 'delete';
  constructor(
    readonly p: number,
    readonly t: number,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const t = w.token(this.t);
    const p = w.principal(this.p, (q) => w.sees(q, t) && w.model.decide(q, 'token:delete', t).allowed);
    w.begin(this.name, `${w.describe(p)} DELETE ${t.label}`);
    const res = await w.call('DELETE', `/tokens/${t.id}`, { key: w.keyOf(p) });
    w.verify(this.name, w.model.expectDelete(p, t), res, `DELETE ${t.label}`);
    await w.checkState(this.name, t);
  }
  toString() {
    return `delete(p${this.p}, t${this.t})`;
  }
}

class CreateSession extends Step {
  readonly name = 'session';
  constructor(
    readonly p: number,
    readonly anyone: boolean,
  ) {
    super();
  }
  async run(_m: World, w: World) {
    const p = this.anyone ? w.principal(this.p) : w.publicApp(this.p % 1000);
    w.begin(this.name, `${w.describe(p)} POST /sessions`);
    const res = await w.call('POST', '/sessions', { key: w.keyOf(p) });
    const alt = w.verify(
      this.name,
      w.model.expectCreateSession(p, () => undefined),
      res,
      'create session',
    );
    if (alt.status === 201) {
      const label = await w.addSession(p, res.body);
      w.trace[w.trace.length - 1] += ` = ${label}`;
    }
  }
  toString() {
    return `session(${this.anyone ? 'p' : 'public'}${this.p})`;
  }
}

function resolveGrants(w: World, g: GrantsSpec): Grants {
  if ('permissions' in g) return g;
  return {
    rules: g.rules.map((r) => {
      const { conditions, ...rest } = r;
      if (!conditions) return rest as Rule;
      return {
        ...rest,
        conditions: conditions.map((c): Condition => {
          if (!('tokenRef' in c)) return c;
          const id = w.token(c.tokenRef).id;
          return { attribute: 'id', operator: c.operator, value: c.operator === 'equals' ? id : id.slice(0, 8) };
        }),
      };
    }),
  };
}

/** Drops the permissions the authorizer does not hold (most authorizations should succeed to be interesting). */
function fitGrants(g: Grants, authorizer: Grants): Grants {
  const held = (perm: TokenPermission) => AccessModel.grantsHold(authorizer, perm);
  if ('permissions' in g) {
    const permissions = g.permissions.filter(held);
    return permissions.length ? { permissions } : g;
  }
  const rules = g.rules.map((r) => ({ ...r, permissions: r.permissions.filter(held) })).filter((r) => r.permissions.length);
  return rules.length ? { rules } : g;
}

class Authorize extends Step {
  readonly name = 'authorize';
  constructor(
    readonly p: number,
    readonly anyone: boolean,
    readonly s: number,
    readonly grants: GrantsSpec,
    readonly expiresSoon: boolean,
    readonly fit: boolean,
  ) {
    super();
  }
  override check(m: Readonly<World>) {
    return m.model.sessions.size > 0;
  }
  async run(_m: World, w: World) {
    const p = this.anyone ? w.principal(this.p) : w.privateApp(this.p);
    const sessions = [...w.model.sessions.values()];
    const s = sessions[this.s % sessions.length];
    let grants = resolveGrants(w, this.grants);
    if (this.fit && p.kind === 'app') grants = fitGrants(grants, w.model.app(p.app).grants);
    const expiresAt = this.expiresSoon ? Date.now() + 1500 : undefined;
    w.begin(this.name, `${w.describe(p)} authorizes ${s.label} with ${grantsText(grants)}${expiresAt ? ' expiring in 1.5 s' : ''}`);
    const alts = w.model.expectAuthorize(p, s, grants, expiresAt);
    const body = { nonce: w.nonceOf(s.label), ...grants, ...(expiresAt ? { expires_at: new Date(expiresAt).toISOString() } : {}) };
    const res = await w.call('POST', '/sessions/authorize', { key: w.keyOf(p), body });
    w.verify(this.name, alts, res, 'authorize');
    if (res.status === 200 && res.text !== '') w.fail('authorize/data', `authorize replied with a body: ${res.text.slice(0, 200)}`);
  }
  toString() {
    return `authorize(${this.anyone ? 'p' : 'private'}${this.p}, s${this.s}, ${JSON.stringify(this.grants)}${this.fit ? ', fitted' : ''}${this.expiresSoon ? ', expiring' : ''})`;
  }
}

abstract class AdminStep extends Step {
  constructor(readonly a: number) {
    super();
  }
  target(w: World): AppState {
    const apps = w.runApps();
    return apps[this.a % apps.length];
  }
}

class DeleteApp extends AdminStep {
  readonly name = 'delete-app';
  async run(_m: World, w: World) {
    const app = this.target(w);
    w.begin(this.name, `admin DELETE /applications/${app.label}`);
    const res = await w.call('DELETE', `/applications/${w.appId(app.label)}`, { key: w.admin() });
    const alts: Alt[] = app.deleted ? [{ status: 404, why: 'already deleted' }] : [{ status: 204, why: 'deleted', effect: () => void (app.deleted = true) }];
    w.verify(this.name, alts, res, 'delete application');
  }
  toString() {
    return `deleteApp(a${this.a})`;
  }
}

class RegenerateApp extends AdminStep {
  readonly name = 'regenerate';
  async run(_m: World, w: World) {
    const app = this.target(w);
    w.begin(this.name, `admin POST /applications/${app.label}/regenerate`);
    const res = await w.call('POST', `/applications/${w.appId(app.label)}/regenerate`, { key: w.admin() });
    const alts: Alt[] = app.deleted
      ? [{ status: 404, why: 'deleted' }]
      : [
          {
            status: 200,
            why: 'new key; the old one and the sessions it created or authorized die',
            effect: () => {
              w.setKey(app.label, res.body.key, app.generation);
              app.generation++;
            },
          },
        ];
    w.verify(this.name, alts, res, 'regenerate');
  }
  toString() {
    return `regenerate(a${this.a})`;
  }
}

class UpdateApp extends AdminStep {
  readonly name = 'update-app';
  constructor(
    a: number,
    readonly publicGrants: Grants,
    readonly privateGrants: Grants,
  ) {
    super(a);
  }
  async run(_m: World, w: World) {
    const app = this.target(w);
    const grants = app.type === 'public' ? this.publicGrants : this.privateGrants;
    w.begin(this.name, `admin PUT /applications/${app.label} ${grantsText(grants)}`);
    const res = await w.call('PUT', `/applications/${w.appId(app.label)}`, { key: w.admin(), body: { name: `security ${app.label}`, ...grants } });
    const alts: Alt[] = app.deleted ? [{ status: 404, why: 'deleted' }] : [{ status: 200, why: 'grants replaced', effect: () => void (app.grants = grants) }];
    w.verify(this.name, alts, res, 'update application');
  }
  toString() {
    return `updateApp(a${this.a}, ${JSON.stringify(this.publicGrants)}, ${JSON.stringify(this.privateGrants)})`;
  }
}

/**
 * A reactor whose svc acts as an application: retrieve or update a token through `req.svc.tokens`, or tokenize a new
 * one as that application. Invoked synchronously (`react`) or asynchronously (`react-async`, then the job's result
 * read back by the caller): both have the same ceilings. The caller is any valid principal holding token:use.
 * - retrieve/update: `raw` carries what svc got, which must be exactly what the application may see (invariant 1 for
 *   the application; what a formula puts in `raw` is its own business towards the caller).
 * - tokenize: the new token is shown to the caller no more revealed than the application's create reply and the
 *   caller's own ceiling for it (canReveal → reveal, else its read transform, else redacted).
 */
class React extends Step {
  readonly name = 'react';
  constructor(
    readonly a: number,
    readonly t: number,
    readonly update: PatchSpec | undefined,
    readonly async = false,
    readonly c = 0,
    readonly tokenize: TokenSpec | undefined = undefined,
  ) {
    super();
  }

  /** POST react, or react-async and then its result polled, as one reply: the status and the Reactor Response (or problem). */
  private async invoke(w: World, reactor: string, caller: Principal, q: string): Promise<ApiResponse> {
    const key = w.keyOf(caller);
    if (!this.async) return w.call('POST', `/reactors/${reactor}/react`, { key, body: { args: { q } } });
    const accepted = await w.call('POST', `/reactors/${reactor}/react-async`, { key, body: { args: { q } } });
    if (accepted.status !== 202) return accepted;
    w.checkLeak('react-async', accepted, false);
    for (let i = 0; i < 300; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await w.call('GET', `/reactors/${reactor}/results/${accepted.body.id}`, { key });
      if (res.status !== 200) w.fail('react-async/status', `reading the result of an accepted job: ${res.status} ${res.text.slice(0, 200)}`);
      if (res.body.status === 'completed') return { ...res, status: 200, body: res.body.result, text: JSON.stringify(res.body.result) };
      if (res.body.status === 'failed') return { ...res, status: res.body.error?.status ?? 500, body: res.body.error, text: JSON.stringify(res.body.error) };
    }
    return w.fail('react-async/status', `job ${accepted.body.id} did not complete`);
  }

  async run(_m: World, w: World) {
    const candidates = [...w.model.apps.values()].filter((a) => a.tenant === 'A' && a.type !== 'management');
    const app = candidates[this.a % candidates.length];
    const p: Principal = { kind: 'app', app: app.label };
    const callers = w
      .principals()
      .filter((q) => q.kind !== 'stale' && w.model.keyState(q) === 'valid' && w.model.tenantOf(q) === 'A' && w.model.holds(q, 'token:use') === 'yes')
      .filter((q) => q.kind !== 'session' || w.model.session(q.session).expiresAt === undefined);
    const caller: Principal = callers.length ? callers[this.c % callers.length] : { kind: 'app', app: 'user' };
    const t = w.token(this.t);
    const draft = this.tokenize ? w.draft(this.tokenize, p) : undefined;
    const patch = !draft && this.update ? resolvePatch(t, this.update) : undefined;
    if (patch?.data !== undefined) w.remember(t.label, patch.data);
    const base = draft ? 'react-tokenize' : patch ? 'react-update' : 'react-retrieve';
    const op = this.async ? `${base}-async` : base;
    const what = draft
      ? `tokenize ${draft.label}: ${draft.type} in ${draft.container}`
      : patch
        ? `svc.tokens.update(${t.label}, ${JSON.stringify(patch)})`
        : `svc.tokens.retrieve(${t.label})`;
    w.begin(op, `${w.describe(caller)} ${this.async ? 'react-async' : 'react'}: a reactor with svc as ${app.label}${app.deleted ? ' (deleted)' : ''}: ${what}`);
    const reactor = await w.reactorFor(app);
    if (typeof reactor !== 'string') {
      w.count('status');
      w.trace[w.trace.length - 1] += ` → reactor refused ${reactor.refused}`;
      if (!app.deleted) w.fail(`${op}/setup`, `a reactor acting as ${app.label} (${app.type}) was refused: ${reactor.refused}`);
      if (reactor.refused < 400 || reactor.refused >= 500) w.fail(`${op}/status`, `reactor for a deleted application: ${reactor.refused}`);
      return;
    }
    const body = draft ? { op: 'tokenize', token: w.createBody(draft, this.tokenize as TokenSpec) } : { op: patch ? 'update' : 'retrieve', id: t.id, patch };
    const q = Buffer.from(JSON.stringify(body)).toString('base64');
    const valid = w.model.keyState(p) === 'valid';
    const couldReveal = valid && !t.deleted && t.tenant === 'A' && w.model.canReveal(p, t);
    const observers = w.observersOf(p, t);
    const before = { ...t };
    const res = await this.invoke(w, reactor, caller, q);
    if (app.deleted) {
      // the contract is silent on how; what matters is that nothing of the token comes back and nothing changes
      w.count('status');
      const inner = res.body?.raw?.status;
      w.trace[w.trace.length - 1] += ` → ${res.status} svc ${inner}`;
      if (draft && res.status < 400) w.fail(`${op}/status`, `tokenized as a deleted application: ${res.status} ${res.text.slice(0, 300)}`);
      if (!((res.status >= 400 && res.status < 500) || (res.status === 200 && inner >= 400 && inner < 500))) {
        w.fail(`${op}/status`, `svc as a deleted application: react ${res.status}, svc ${inner}: ${res.text.slice(0, 300)}`);
      }
      w.checkLeak(op, res, false);
      if (patch) await w.checkState(op, t);
      return;
    }
    if (draft) return this.checkTokenize(w, op, p, caller, draft, res);
    if (res.status !== 200 || typeof res.body?.raw?.status !== 'number') w.fail(`${op}/status`, `react ${res.status}: ${res.text.slice(0, 300)}`);
    const inner: ApiResponse = { status: res.body.raw.status, headers: res.headers, body: res.body.raw.body ?? res.body.raw.error, text: res.text };
    const alts = patch ? w.model.expectPatch(p, t, patch, true) : w.model.expectGet(p, t, true);
    const alt = w.match(op, alts, inner);
    if (alt.data) w.checkData(op, `svc ${t.label}`, inner.body, alt.data);
    w.checkLeak(op, { ...inner, body: alt.data ? stripData(inner.body) : res.body }, false);
    alt.effect?.();
    if (patch) {
      await w.checkState(op, t);
      if (alt.status === 200) {
        await w.sweep(op, p, t, observers, couldReveal);
        if (patchesExposure(patch)) await w.oracleSweep(op, p, t, before, couldReveal);
      }
    }
  }

  /** The tokenize reply: the application's create decision, capped by the caller's own ceiling for the new token. */
  private async checkTokenize(w: World, op: string, app: Principal, caller: Principal, draft: TokenState, res: ApiResponse): Promise<void> {
    const token = res.status === 200 ? res.body?.tokens?.t : undefined;
    if (token?.id) draft.id = token.id;
    const read = w.model.decide(caller, 'token:read', draft);
    const ceiling: Transform = w.model.canReveal(caller, draft) ? 'reveal' : read.allowed ? read.transform : 'redact';
    const alts = w.model.expectCreate(app, draft).map((a): Alt => {
      if (a.status !== 201 || !a.data || !('exact' in a.data)) return a;
      const shown = lower(a.data.exact, ceiling);
      return {
        ...a,
        status: 200,
        data: { exact: shown, token: a.data.token },
        why: `${a.why}; the caller's ceiling ${ceiling}${rankOf(shown) < rankOf(a.data.exact) ? ' lowers it' : ''}`,
      };
    });
    const alt = w.match(op, alts, res);
    if (alt.data) w.checkData(op, `tokenized ${draft.label}`, token, alt.data);
    w.checkLeak(op, alt.data ? { ...res, body: { ...res.body, tokens: { t: stripData(token) } } } : res, false);
    alt.effect?.();
    if (alt.status === 200) await w.checkState(op, draft);
  }

  toString() {
    const mode = this.async ? ', async' : '';
    if (this.tokenize) return `react(a${this.a}, c${this.c}, tokenize ${JSON.stringify(this.tokenize)}${mode})`;
    return `react(a${this.a}, c${this.c}, t${this.t}${this.update ? `, update ${JSON.stringify(this.update)}` : ''}${mode})`;
  }
}

// ---------------------------------------------------------------------------------------------------------------

const pick = fc.nat(999);
/** a principal: any (owner, management, other tenant, stale keys…), a session, an application of the run, or one able to */
const principalPick = fc.nat(3999);
/** half the patches are about data, mask and containers, half about what searches and fingerprints disclose */
const patchSpecArb: fc.Arbitrary<PatchSpec> = fc
  .tuple(
    fc.boolean(),
    fc.record({
      data: fc.boolean(),
      mask: fc.option(fc.nat(3), { nil: undefined }),
      container: fc.option(fc.constantFrom(...TOKEN_CONTAINERS), { nil: undefined }),
    }),
    // metadata (any key that may update), search indexes and the fingerprint expression (only one that may reveal)
    fc.record({
      data: fc.boolean(),
      // (freq: 1 / the chance of undefined)
      metadata: fc.option(fc.nat(3), { nil: undefined, freq: 2 }),
      indexes: fc.option(fc.nat(4), { nil: undefined, freq: 2 }),
      fingerprint: fc.option(fc.nat(3), { nil: undefined, freq: 2 }),
    }),
  )
  // a boolean picks the form (fc.oneof favours its first arbitrary)
  .map(([exposure, plain, spec]): PatchSpec => (exposure ? spec : plain));

/** Every command with its weight (repeated entries weigh more). */
export function commandArbitraries(): Array<fc.Arbitrary<Cmd>> {
  const create = fc.tuple(principalPick, tokenSpecArb).map(([p, s]) => new CreateToken(p, s));
  const tokenize = fc.tuple(principalPick, tokenSpecArb).map(([p, s]) => new Tokenize(p, s));
  const get = fc.tuple(principalPick, pick).map(([p, t]) => new GetToken(p, t));
  const list = fc.tuple(principalPick, fc.boolean()).map(([p, v2]) => new ListTokens(p, v2));
  const search = fc
    .tuple(principalPick, fc.constantFrom<SearchKind>('all', 'type:card', 'type:token', 'container:/a/'), fc.boolean())
    .map(([p, k, v2]) => new SearchTokens(p, k, v2));
  const detokenize = fc.tuple(principalPick, pick, fc.option(pick, { nil: undefined, freq: 3 })).map(([p, t, t2]) => new Detokenize(p, t, t2));
  const patch = fc.tuple(principalPick, pick, patchSpecArb).map(([p, t, s]) => new PatchToken(p, t, s));
  const del = fc.tuple(principalPick, pick).map(([p, t]) => new DeleteToken(p, t));
  const searchData = fc.tuple(principalPick, pick, fc.constantFrom(...PROBES)).map(([p, t, probe]) => new SearchData(p, t, probe));
  const session = fc.tuple(principalPick, fc.boolean()).map(([p, anyone]) => new CreateSession(p, anyone));
  const authorize = fc
    .tuple(principalPick, fc.nat(4), pick, sessionGrantsArb, fc.nat(7), fc.nat(3))
    .map(([p, who, s, g, e, fit]) => new Authorize(p, who === 0, s, g, e === 0, fit !== 0));
  const admin = fc.oneof(
    { weight: 1, arbitrary: pick.map((a): Cmd => new DeleteApp(a)) },
    { weight: 1, arbitrary: pick.map((a): Cmd => new RegenerateApp(a)) },
    { weight: 2, arbitrary: fc.tuple(pick, grantsArb('public'), grantsArb('private')).map(([a, g1, g2]): Cmd => new UpdateApp(a, g1, g2)) },
  );
  const react = fc
    .tuple(pick, pick, fc.option(patchSpecArb, { nil: undefined, freq: 2 }), fc.boolean(), pick, fc.noBias(fc.nat(2)), tokenSpecArb)
    // a third tokenize as the application, the others retrieve or update through svc
    .map(([a, t, u, async, c, kind, tk]) => new React(a, t, u, async, c, kind === 0 ? tk : undefined));
  return [
    create,
    create,
    tokenize,
    get,
    get,
    list,
    search,
    searchData,
    detokenize,
    detokenize,
    patch,
    patch,
    patch,
    del,
    session,
    authorize,
    authorize,
    admin,
    admin,
    react,
    react,
  ];
}
