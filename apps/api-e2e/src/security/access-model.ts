/**
 * Reference model of Coffer's access contract for issue 11 (invariants 1–3), written from the contract text
 * (docs/access-control.md, the conventions' transform table, the invariants) and deliberately NOT from
 * libs/auth or the services' access code. Pure: no I/O. The harness in access-harness/ drives the real system over HTTP and
 * compares every reply with what this model allows.
 *
 * The rules, as implemented here:
 * - Types: public may hold token:create/update (creates sessions); private holds token:* (authorizes sessions);
 *   management never touches token data (every token decision is deny).
 * - Grants are `permissions` (every container, implicit transforms) or `rules` tried in ascending priority; the first
 *   rule whose `container` is a prefix of the token's container (sessions: or whose `conditions` all hold) decides:
 *   allowed iff it lists the permission, with the rule's transform. No match: deny.
 * - Implicit transforms: create/update → mask; read/search → mask, reveal with token:use; use → reveal.
 * - A session is pending (deny everything) until authorized; then D(session) = own grants AND the authorizer's
 *   CURRENT grants, transform = the lower of the two. Its key dies (401) when its public application or its
 *   authorizer is deleted or regenerated, or when it expires.
 * - canReveal(P, t) = D(P, use, t) allowed, or D(P, read, t) allowed with transform reveal.
 * - Replies: reveal → plaintext; mask → the evaluated mask (no mask → no `data` key); redact → no `data` key.
 * - Writes: create needs D(create) in the new container, replies min(create transform, canReveal ? reveal : mask);
 *   PATCH needs D(update) in the current container, and for a change of mask, containers, search_indexes or
 *   fingerprint_expression canReveal in the current container (containers also D(create) in the new one); replies
 *   min(update transform after, canReveal after ? reveal : mask).
 * - Exposure (docs/access-control.md "Changing what others see", docs/tokens.md): a token's search indexes and
 *   fingerprint expression are changed only by a key with canReveal in the current container; `null` means the
 *   type's default, and sending what is stored is no change; a patch that does not name them keeps them as stored.
 *   Metadata is merged by any key with D(update) and stored literally (never evaluated).
 * - `data:<value>` search (docs/tokens.md "Search syntax"): a token matches iff one of its search indexes, evaluated
 *   over its data, equals the value exactly; only tokens where D(search) allows are returned. So the values a key
 *   can confirm by search are fixed by the indexes, which only a key that may reveal the token may change.
 * Where the contract is silent the model accepts a set of outcomes (see `Alt`), never a more revealing one.
 */

export const TOKEN_PERMISSIONS = ['token:create', 'token:read', 'token:update', 'token:delete', 'token:search', 'token:use'] as const;
export type TokenPermission = (typeof TOKEN_PERMISSIONS)[number];
export const PUBLIC_PERMISSIONS: TokenPermission[] = ['token:create', 'token:update'];
export const MANAGEMENT_PERMISSIONS = [
  'application:create',
  'application:read',
  'application:update',
  'application:delete',
  'reactor:create',
  'reactor:read',
  'reactor:update',
  'reactor:delete',
  'tenant:read',
  'tenant:update',
  'log:read',
  'webhook:create',
  'webhook:read',
  'webhook:update',
  'webhook:delete',
  'proxy:create',
  'proxy:read',
  'proxy:update',
  'proxy:delete',
  'tenant:member:read',
  'tenant:member:update',
  'tenant:member:delete',
  'tenant:invitation:create',
  'tenant:invitation:read',
  'tenant:invitation:update',
  'tenant:invitation:delete',
  'tenant:owner:transfer',
] as const;

export type Transform = 'redact' | 'mask' | 'reveal';
export const TRANSFORMS: Transform[] = ['redact', 'mask', 'reveal'];
const RANK: Record<Transform, number> = { redact: 0, mask: 1, reveal: 2 };
export const rankOf = (t: Transform) => RANK[t];
export const lower = (a: Transform, b: Transform): Transform => (RANK[a] <= RANK[b] ? a : b);

export interface Condition {
  attribute: 'id' | 'container';
  operator: 'equals' | 'starts_with';
  value: string;
}
export interface Rule {
  description?: string;
  priority: number;
  container?: string;
  conditions?: Condition[];
  transform: Transform;
  permissions: TokenPermission[];
}
export type Grants = { permissions: TokenPermission[] } | { rules: Rule[] };

export type AppType = 'public' | 'private' | 'management';
export type TenantName = 'A' | 'B';
export type TokenType = 'token' | 'card' | 'social_security_number';

export interface AppState {
  label: string;
  tenant: TenantName;
  type: AppType;
  grants: Grants;
  deleted: boolean;
  /** bumped by every regenerate: keys and sessions of an older generation are dead */
  generation: number;
  /** shared across runs (never deleted, regenerated or updated) */
  pooled: boolean;
}

export interface SessionState {
  label: string;
  tenant: TenantName;
  publicApp: string;
  publicGeneration: number;
  authorized: boolean;
  authorizer?: string;
  authorizerGeneration?: number;
  grants?: Grants;
  /** epoch ms (client clock) when authorized with expires_at */
  expiresAt?: number;
}

export interface TokenState {
  label: string;
  tenant: TenantName;
  id: string;
  type: TokenType;
  data: unknown;
  /** the effective mask (the type's default when none was given); undefined = none */
  mask: unknown;
  container: string;
  deleted: boolean;
  /** stored literally; `run` tags the run's tokens */
  metadata: Record<string, string>;
  /** the effective search indexes (the type's default when none were given) */
  searchIndexes: string[];
  /** the effective fingerprint expression */
  fingerprintExpression: string;
}

export type Principal =
  | { kind: 'app'; app: string }
  | { kind: 'session'; session: string }
  /** the key an application had before a regenerate */
  | { kind: 'stale'; app: string; generation: number };

export interface Decision {
  allowed: boolean;
  transform: Transform;
}
const DENY: Decision = { allowed: false, transform: 'redact' };

export const DEFAULT_CONTAINER: Record<TokenType, string> = {
  token: '/general/high/',
  card: '/pci/high/',
  social_security_number: '/pii/high/',
};
export const DEFAULT_MASK: Record<TokenType, unknown> = {
  token: undefined,
  card: { number: '{{ data.number | reveal_last: 4 }}', expiration_month: '{{ data.expiration_month }}', expiration_year: '{{ data.expiration_year }}' },
  social_security_number: '{{ data | reveal_last: 4 }}',
};

/** docs/tokens.md, token types table */
export const DEFAULT_SEARCH_INDEXES: Record<TokenType, string[]> = {
  token: [],
  card: [],
  social_security_number: ['{{ data }}', "{{ data | remove: '-' }}", '{{ data | last4 }}'],
};
/** docs/tokens.md, fields table */
export const DEFAULT_FINGERPRINT_EXPRESSION = '{{ data | stringify }}';

// ---------------------------------------------------------------------------------------------------------------
// masks: the small subset of Liquid the model uses ({{ data }}, {{ data.x }}, `| reveal_last: n`, constant text)

/** `reveal: 0, n, 'X', '-'`: '-' is kept and not counted; when n ≥ the counted length everything is masked. */
export function revealLast(s: string, n: number): string {
  const counted = [...s].filter((c) => c !== '-').length;
  const keep = n >= counted ? 0 : n;
  let seen = 0;
  const out = [...s].reverse().map((c) => {
    if (c === '-') return c;
    seen++;
    return seen <= keep ? c : 'X';
  });
  return out.reverse().join('');
}

function evalExpression(expr: string, data: unknown): unknown {
  const [path, ...filters] = expr.split('|').map((p) => p.trim());
  const segments = path.split('.');
  if (segments[0] !== 'data') throw new Error(`model mask: unsupported expression ${expr}`);
  let value: unknown = data;
  for (const s of segments.slice(1)) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[s] : undefined;
  for (const f of filters) {
    const m = /^reveal_last:\s*(\d+)$/.exec(f);
    const slice = /^slice:\s*(\d+),\s*(\d+)$/.exec(f);
    if (m) value = revealLast(String(value ?? ''), Number(m[1]));
    else if (slice) value = String(value ?? '').substr(Number(slice[1]), Number(slice[2]));
    else if (f === 'last4') value = String(value ?? '').slice(-4);
    else if (f === "remove: '-'")
      value = String(value ?? '')
        .split('-')
        .join('');
    else throw new Error(`model mask: unsupported filter ${f}`);
  }
  return value;
}

export function evaluateMask(mask: unknown, data: unknown): unknown {
  if (typeof mask === 'string') {
    const whole = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(mask);
    if (whole) return evalExpression(whole[1], data); // a lone output keeps its type (card month/year stay numbers)
    return mask.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_, e: string) => String(evalExpression(e, data) ?? ''));
  }
  if (Array.isArray(mask)) return mask.map((m) => evaluateMask(m, data));
  if (mask !== null && typeof mask === 'object') {
    return Object.fromEntries(Object.entries(mask as Record<string, unknown>).map(([k, v]) => [k, evaluateMask(v, data)]));
  }
  return mask;
}

/** The values a `data:` search finds the token by: each search index evaluated over its data (as text). */
export function indexValues(t: TokenState): string[] {
  return t.searchIndexes.map((ix) => {
    const v = evaluateMask(ix, t.data);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).sort();
  const kb = Object.keys(b as object).sort();
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** RFC 7396 JSON merge patch (PATCH /tokens/{id} is application/merge-patch+json: an object mask merges). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** The `data` a reply carries under a transform: undefined = no `data` key. */
export function render(transform: Transform, t: TokenState): { present: false } | { present: true; value: unknown } {
  if (transform === 'reveal') return { present: true, value: t.data };
  if (transform === 'mask' && t.mask !== undefined) return { present: true, value: evaluateMask(t.mask, t.data) };
  return { present: false };
}

/** How much of the plaintext a `data` value discloses: 0 nothing, 1 a mask, 2 the plaintext. */
export function disclosure(present: boolean, value: unknown, t: TokenState): number {
  if (!present) return 0;
  return deepEqual(value, t.data) ? 2 : 1;
}

// ---------------------------------------------------------------------------------------------------------------
// expectations

/** What a reply's data may be: exactly one transform, or anything at most as revealing as a bound. */
export type DataExpectation = { exact: Transform; token: TokenState } | { atMost: Transform; token: TokenState };

/** One acceptable outcome of an operation. An operation's expectation is a non-empty list of them. */
export interface Alt {
  status: number;
  /** single-token replies (GET, POST, PATCH, svc) */
  data?: DataExpectation;
  /** lists and search: exactly these ids (of this run), each shaped so */
  items?: Map<string, DataExpectation>;
  /** replies compared as a whole (detokenize) */
  body?: unknown;
  /** the state change when the system answered with this outcome */
  effect?: () => void;
  why: string;
}

export function acceptableData(e: DataExpectation): Array<{ present: false } | { present: true; value: unknown }> {
  if ('exact' in e) return [render(e.exact, e.token)];
  return TRANSFORMS.filter((t) => rankOf(t) <= rankOf(e.atMost)).map((t) => render(t, e.token));
}

/** PATCH /tokens/{id} as the model knows it (merge-patch: data, mask, metadata merge; the rest is replaced). */
export interface TokenPatch {
  data?: unknown;
  mask?: unknown;
  containers?: string[];
  metadata?: Record<string, string | null>;
  /** null: back to the type's default */
  search_indexes?: string[] | null;
  /** null: back to the default */
  fingerprint_expression?: string | null;
}

export type KeyState = 'valid' | 'dead' | 'uncertain';
/** expiry is checked against the client clock: ± this margin is accepted either way */
export const EXPIRY_MARGIN_MS = 500;

export class AccessModel {
  readonly apps = new Map<string, AppState>();
  readonly sessions = new Map<string, SessionState>();
  readonly tokens: TokenState[] = [];

  app(label: string): AppState {
    const a = this.apps.get(label);
    if (!a) throw new Error(`model: no app ${label}`);
    return a;
  }
  session(label: string): SessionState {
    const s = this.sessions.get(label);
    if (!s) throw new Error(`model: no session ${label}`);
    return s;
  }

  tenantOf(p: Principal): TenantName {
    return p.kind === 'session' ? this.session(p.session).tenant : this.app(p.app).tenant;
  }

  private appAlive(label: string, generation: number): boolean {
    const a = this.app(label);
    return !a.deleted && a.generation === generation;
  }

  keyState(p: Principal, now = Date.now()): KeyState {
    return this.keyStatus(p, now).state;
  }

  keyStatus(p: Principal, now = Date.now()): { state: KeyState; why: string } {
    if (p.kind === 'stale') return { state: 'dead', why: 'the key was regenerated' };
    if (p.kind === 'app') return this.app(p.app).deleted ? { state: 'dead', why: 'the application was deleted' } : { state: 'valid', why: '' };
    const s = this.session(p.session);
    if (!this.appAlive(s.publicApp, s.publicGeneration)) return { state: 'dead', why: "the session's public application was deleted or regenerated" };
    if (s.authorized && !this.appAlive(s.authorizer as string, s.authorizerGeneration as number)) {
      return { state: 'dead', why: "the session's authorizer was deleted or regenerated" };
    }
    if (s.expiresAt !== undefined) {
      if (now > s.expiresAt + EXPIRY_MARGIN_MS) return { state: 'dead', why: 'the session expired' };
      if (now > s.expiresAt - EXPIRY_MARGIN_MS) return { state: 'uncertain', why: 'the session is expiring' };
    }
    return { state: 'valid', why: '' };
  }

  /** For the record: where a session's authorizer changed its decision (invariant 3 at work). */
  capNote(p: Principal, permission: TokenPermission, t: TokenState): string {
    if (p.kind !== 'session') return '';
    const s = this.session(p.session);
    if (!s.authorized || !s.grants) return '';
    const own = AccessModel.decideGrants(s.grants, permission, t);
    const capped = this.decide(p, permission, t);
    if (own.allowed && !capped.allowed) return ' [authorizer cap denies]';
    if (own.allowed && own.transform !== capped.transform) return ` [authorizer cap lowers ${own.transform} to ${capped.transform}]`;
    return '';
  }

  static implicit(permission: TokenPermission, permissions: TokenPermission[]): Transform {
    switch (permission) {
      case 'token:create':
      case 'token:update':
        return 'mask';
      case 'token:read':
      case 'token:search':
        return permissions.includes('token:use') ? 'reveal' : 'mask';
      case 'token:use':
        return 'reveal';
      default:
        return 'redact';
    }
  }

  static ruleMatches(r: Rule, t: TokenState): boolean {
    if (r.container !== undefined) return t.container.startsWith(r.container);
    if (r.conditions !== undefined) {
      return r.conditions.every((c) => {
        const actual = c.attribute === 'id' ? t.id : t.container;
        return c.operator === 'equals' ? actual === c.value : actual.startsWith(c.value);
      });
    }
    return false;
  }

  static decideGrants(g: Grants, permission: TokenPermission, t: TokenState): Decision {
    if ('permissions' in g) return g.permissions.includes(permission) ? { allowed: true, transform: AccessModel.implicit(permission, g.permissions) } : DENY;
    for (const r of [...g.rules].sort((a, b) => a.priority - b.priority)) {
      if (AccessModel.ruleMatches(r, t)) return r.permissions.includes(permission) ? { allowed: true, transform: r.transform } : DENY;
    }
    return DENY;
  }

  static grantsHold(g: Grants, permission: TokenPermission): boolean {
    return 'permissions' in g ? g.permissions.includes(permission) : g.rules.some((r) => r.permissions.includes(permission));
  }

  /** D(P, permission, t) for a principal of t's tenant whose key works. */
  decide(p: Principal, permission: TokenPermission, t: TokenState): Decision {
    if (p.kind === 'stale') return DENY;
    if (p.kind === 'app') {
      const a = this.app(p.app);
      if (a.type === 'management') return DENY;
      return AccessModel.decideGrants(a.grants, permission, t);
    }
    const s = this.session(p.session);
    if (!s.authorized || !s.grants) return DENY;
    const own = AccessModel.decideGrants(s.grants, permission, t);
    const cap = this.decide({ kind: 'app', app: s.authorizer as string }, permission, t);
    if (!own.allowed || !cap.allowed) return DENY;
    return { allowed: true, transform: lower(own.transform, cap.transform) };
  }

  canReveal(p: Principal, t: TokenState): boolean {
    if (this.decide(p, 'token:use', t).allowed) return true;
    const read = this.decide(p, 'token:read', t);
    return read.allowed && read.transform === 'reveal';
  }

  /**
   * Whether the principal holds a permission somewhere (the route-level check: 403 before any token is looked at).
   * 'maybe' where the contract is silent: a session whose own grants hold it but whose authorizer no longer does.
   */
  holds(p: Principal, permission: TokenPermission): 'yes' | 'no' | 'maybe' {
    if (p.kind === 'stale') return 'no';
    if (p.kind === 'app') {
      const a = this.app(p.app);
      return a.type !== 'management' && AccessModel.grantsHold(a.grants, permission) ? 'yes' : 'no';
    }
    const s = this.session(p.session);
    if (!s.authorized || !s.grants || !AccessModel.grantsHold(s.grants, permission)) return 'no';
    return this.holds({ kind: 'app', app: s.authorizer as string }, permission) === 'yes' ? 'yes' : 'maybe';
  }

  live(tenant: TenantName): TokenState[] {
    return this.tokens.filter((t) => t.tenant === tenant && !t.deleted);
  }

  /** 401 when the key is dead; both ways when it is about to expire. */
  private withKey(p: Principal, alts: () => Alt[]): Alt[] {
    const { state, why } = this.keyStatus(p);
    if (state === 'dead') return [{ status: 401, why }];
    if (state === 'uncertain') return [{ status: 401, why }, ...alts()];
    return alts();
  }

  /** The token is unknown to this principal: 404, or 403 when the route check already refuses. */
  private notFound(p: Principal, permission: TokenPermission, notFoundStatus = 404): Alt[] {
    const h = this.holds(p, permission);
    const out: Alt[] = [];
    if (h !== 'yes') out.push({ status: 403, why: `does not hold ${permission}` });
    if (h !== 'no') out.push({ status: notFoundStatus, why: 'unknown token (deleted or of another tenant)' });
    return out;
  }

  private visible(p: Principal, t: TokenState): boolean {
    return !t.deleted && t.tenant === this.tenantOf(p);
  }

  expectGet(p: Principal, t: TokenState, svc = false): Alt[] {
    return this.withKey(p, () => {
      if (!this.visible(p, t))
        return svc
          ? [
              { status: 403, why: 'svc: unknown' },
              { status: 404, why: 'svc: unknown' },
            ]
          : this.notFound(p, 'token:read');
      const d = this.decide(p, 'token:read', t);
      const note = this.capNote(p, 'token:read', t);
      if (!d.allowed) return [{ status: 403, why: `D(read) denies${note}` }];
      return [{ status: 200, data: { exact: d.transform, token: t }, why: `D(read) = ${d.transform}${note}` }];
    });
  }

  expectDelete(p: Principal, t: TokenState): Alt[] {
    return this.withKey(p, () => {
      if (!this.visible(p, t)) return this.notFound(p, 'token:delete');
      if (!this.decide(p, 'token:delete', t).allowed) return [{ status: 403, why: 'D(delete) denies' }];
      return [{ status: 204, why: 'D(delete) allows', effect: () => void (t.deleted = true) }];
    });
  }

  private listing(p: Principal, permission: 'token:read' | 'token:search', filter: (t: TokenState) => boolean): Alt[] {
    return this.withKey(p, () => {
      const h = this.holds(p, permission);
      const out: Alt[] = [];
      if (h !== 'yes') out.push({ status: 403, why: `does not hold ${permission}` });
      if (h !== 'no') {
        const items = new Map<string, DataExpectation>();
        for (const t of this.live(this.tenantOf(p)).filter(filter)) {
          const d = this.decide(p, permission, t);
          if (d.allowed) items.set(t.id, { exact: d.transform, token: t });
        }
        out.push({ status: 200, items, why: `tokens where D(${permission}) allows` });
      }
      return out;
    });
  }

  expectList(p: Principal): Alt[] {
    return this.listing(p, 'token:read', () => true);
  }

  expectSearch(p: Principal, filter: (t: TokenState) => boolean): Alt[] {
    return this.listing(p, 'token:search', filter);
  }

  /** `data:<value>` (with the run's tag): the tokens D(search) lets P find whose search indexes give exactly `value`. */
  expectSearchData(p: Principal, value: string): Alt[] {
    return this.listing(p, 'token:search', (t) => indexValues(t).includes(value));
  }

  expectDetokenize(p: Principal, refs: Array<{ key: string; token: TokenState }>): Alt[] {
    return this.withKey(p, () => {
      const use = this.holds(p, 'token:use');
      const read = this.holds(p, 'token:read');
      const out: Alt[] = [];
      if (use !== 'yes' && read !== 'yes') out.push({ status: 403, why: 'holds neither token:use nor token:read' });
      if (use === 'no' && read === 'no') return out;
      const unknown = refs.some((r) => !this.visible(p, r.token));
      const forbidden = refs.some((r) => this.visible(p, r.token) && !this.canReveal(p, r.token));
      if (unknown) out.push({ status: 400, why: 'references an unknown token' });
      const notes = refs.map((r) => (this.visible(p, r.token) ? this.capNote(p, 'token:use', r.token) || this.capNote(p, 'token:read', r.token) : '')).join('');
      if (forbidden) out.push({ status: 403, why: `cannot reveal every referenced token${notes}` });
      if (!unknown && !forbidden) out.push({ status: 200, body: Object.fromEntries(refs.map((r) => [r.key, r.token.data])), why: 'canReveal every token' });
      return out;
    });
  }

  /** POST /tokens; `draft` is the token as it would be stored (its id is filled in from the reply). */
  expectCreate(p: Principal, draft: TokenState): Alt[] {
    return this.withKey(p, () => {
      const t = { ...draft, tenant: this.tenantOf(p) };
      const d = this.decide(p, 'token:create', t);
      if (!d.allowed) return [{ status: 403, why: `D(create) denies in that container${this.capNote(p, 'token:create', t)}` }];
      const cap: Transform = this.canReveal(p, t) ? 'reveal' : 'mask';
      return [
        {
          status: 201,
          data: { exact: lower(d.transform, cap), token: t },
          why: `D(create) = ${d.transform}, canReveal = ${cap === 'reveal'}${this.capNote(p, 'token:create', t)}`,
          effect: () => void this.tokens.push(t),
        },
      ];
    });
  }

  /**
   * PATCH /tokens/{id} (merge-patch of data, mask, containers); a field sent with its current value is no change.
   * `svc` (a reactor's svc client): a token the application cannot see may be 403 or 404.
   */
  expectPatch(p: Principal, t: TokenState, patch: TokenPatch, svc = false): Alt[] {
    return this.withKey(p, () => {
      if (!this.visible(p, t))
        return svc
          ? [
              { status: 403, why: 'svc: unknown' },
              { status: 404, why: 'svc: unknown' },
            ]
          : this.notFound(p, 'token:update');
      const update = this.decide(p, 'token:update', t);
      if (!update.allowed) return [{ status: 403, why: `D(update) denies in the current container${this.capNote(p, 'token:update', t)}` }];
      const reveal = this.canReveal(p, t);
      // sending a field with the value it already has is not a change
      const changesMask = patch.mask !== undefined && !deepEqual(mergePatch(t.mask, patch.mask), t.mask);
      const changesContainer = patch.containers !== undefined && patch.containers[0] !== t.container;
      // null: the type's default; a field not sent: kept as stored
      const indexes = patch.search_indexes === undefined ? t.searchIndexes : (patch.search_indexes ?? DEFAULT_SEARCH_INDEXES[t.type]);
      const fingerprint =
        patch.fingerprint_expression === undefined ? t.fingerprintExpression : (patch.fingerprint_expression ?? DEFAULT_FINGERPRINT_EXPRESSION);
      const changed = [
        changesMask && 'mask',
        changesContainer && 'containers',
        !deepEqual(indexes, t.searchIndexes) && 'search_indexes',
        fingerprint !== t.fingerprintExpression && 'fingerprint_expression',
      ].filter(Boolean);
      if (changed.length && !reveal) {
        return [{ status: 403, why: `changing ${changed[0]} needs canReveal${this.capNote(p, 'token:use', t) || this.capNote(p, 'token:read', t)}` }];
      }
      const after: TokenState = {
        ...t,
        data: patch.data !== undefined ? mergePatch(t.data, patch.data) : t.data,
        mask: patch.mask !== undefined ? mergePatch(t.mask, patch.mask) : t.mask,
        container: patch.containers ? patch.containers[0] : t.container,
        metadata: patch.metadata !== undefined ? (mergePatch(t.metadata, patch.metadata) as Record<string, string>) : t.metadata,
        searchIndexes: indexes,
        fingerprintExpression: fingerprint,
      };
      if (changesContainer && !this.decide(p, 'token:create', after).allowed) return [{ status: 403, why: 'D(create) denies in the new container' }];
      const cap: Transform = this.canReveal(p, after) ? 'reveal' : 'mask';
      const updateAfter = this.decide(p, 'token:update', after);
      const data: DataExpectation = updateAfter.allowed
        ? { exact: lower(updateAfter.transform, cap), token: after }
        : // no update in the new container: the contract is silent; never more than before the move
          { atMost: lower(update.transform, cap), token: after };
      return [
        {
          status: 200,
          data,
          why: `D(update) = ${update.transform}, canReveal = ${reveal}${this.capNote(p, 'token:update', t)}`,
          effect: () => {
            t.data = after.data;
            t.mask = after.mask;
            t.container = after.container;
            t.metadata = after.metadata;
            t.searchIndexes = after.searchIndexes;
            t.fingerprintExpression = after.fingerprintExpression;
          },
        },
      ];
    });
  }

  expectCreateSession(p: Principal, onCreated: () => void): Alt[] {
    return this.withKey(p, () => {
      if (p.kind === 'app' && this.app(p.app).type === 'public') return [{ status: 201, why: 'public application', effect: onCreated }];
      return [{ status: 403, why: 'only a public application creates sessions' }];
    });
  }

  expectAuthorize(p: Principal, s: SessionState, grants: Grants, expiresAt: number | undefined): Alt[] {
    return this.withKey(p, () => {
      if (p.kind !== 'app' || this.app(p.app).type !== 'private') return [{ status: 403, why: 'only a private application authorizes' }];
      const a = this.app(p.app);
      if (a.tenant !== s.tenant) return [{ status: 404, why: "another tenant's nonce" }];
      const named = 'permissions' in grants ? grants.permissions : grants.rules.flatMap((r) => r.permissions);
      const held = named.every((perm) => AccessModel.grantsHold(a.grants, perm));
      const sessionDead = this.keyState({ kind: 'session', session: s.label }) !== 'valid';
      const authorize = () => {
        s.authorized = true;
        s.authorizer = a.label;
        s.authorizerGeneration = a.generation;
        s.grants = grants;
        s.expiresAt = expiresAt;
      };
      if (sessionDead) {
        // its public application is gone: the nonce may be gone too; whatever happens the key stays dead
        return [
          { status: 404, why: 'the session died with its application' },
          { status: 409, why: 'already authorized' },
          { status: 400, why: 'permissions not held' },
          { status: 200, why: 'authorized, but its key is dead anyway', effect: authorize },
        ];
      }
      const out: Alt[] = [];
      if (s.authorized) out.push({ status: 409, why: 'nonce already used' });
      if (!held) out.push({ status: 400, why: 'the authorizer does not hold every permission named' });
      if (!s.authorized && held) out.push({ status: 200, why: 'authorized', effect: authorize });
      return out;
    });
  }
}
