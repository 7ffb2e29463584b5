/**
 * The operations of the model-based security test as fast-check commands: each picks its principal and token from
 * the world (preferring, for a quarter of the picks, one the model lets do it), calls the real system over HTTP,
 * checks the reply against the model's expectation (./checks.ts) and applies the matched outcome to the model; writes
 * are followed by the state, escalation and oracle checks. commandArbitraries gives every command with its weight.
 */
import fc from 'fast-check';
import type { ApiResponse } from '@coffer/testing';
import {
  AccessModel,
  DEFAULT_CONTAINER,
  lower,
  rankOf,
  type Alt,
  type AppState,
  type Condition,
  type Grants,
  type Principal,
  type Rule,
  type TokenPatch,
  type TokenPermission,
  type TokenState,
  type Transform,
} from '../access-model';
import { checkData, checkLeak, checkState, match, observersOf, oracleSweep, stripData, sweep, verify } from './checks';
import {
  FINGERPRINTS,
  INDEXES,
  METADATA_PATCHES,
  PROBES,
  TOKEN_CONTAINERS,
  effectiveMask,
  grantsArb,
  grantsText,
  newData,
  probeValue,
  sessionGrantsArb,
  tokenSpecArb,
  type GrantsSpec,
  type Probe,
  type SearchKind,
  type TokenSpec,
} from './generators';
import type { World } from './world';

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
    verify(w, this.name, w.model.expectCreate(p, draft), res, `create ${draft.label}`);
    if (res.status === 201) await checkState(w, this.name, draft);
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
    verify(w, this.name, alts, res.status === 200 ? { ...res, body: res.body?.x } : res, `tokenize ${draft.label}`);
    if (res.status === 200) await checkState(w, this.name, draft);
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
    verify(w, this.name, w.model.expectGet(p, t), res, `GET ${t.label}`);
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
    verify(w, this.name, w.model.expectList(p), res, 'list');
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
    verify(w, this.name, w.model.expectSearch(p, filter), res, 'search');
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
    verify(w, this.name, w.model.expectDetokenize(p, refs), res, 'detokenize');
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
    verify(w, this.name, w.model.expectSearchData(p, value), res, 'search by data');
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
    const observers = observersOf(w, p, t);
    const before = { ...t };
    const res = await w.call('PATCH', `/tokens/${t.id}`, { key: w.keyOf(p), body: patch, contentType: 'application/merge-patch+json' });
    const alt = verify(w, this.name, alts, res, `PATCH ${t.label}`);
    await checkState(w, this.name, t);
    if (alt.status === 200) {
      await sweep(w, this.name, p, t, observers, couldReveal);
      if (patchesExposure(patch)) await oracleSweep(w, this.name, p, t, before, couldReveal);
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
    verify(w, this.name, w.model.expectDelete(p, t), res, `DELETE ${t.label}`);
    await checkState(w, this.name, t);
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
    const alt = verify(
      w,
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

export class Authorize extends Step {
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
    verify(w, this.name, alts, res, 'authorize');
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
    verify(w, this.name, alts, res, 'delete application');
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
    verify(w, this.name, alts, res, 'regenerate');
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
    verify(w, this.name, alts, res, 'update application');
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
    checkLeak(w, 'react-async', accepted, false);
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
    const observers = observersOf(w, p, t);
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
      checkLeak(w, op, res, false);
      if (patch) await checkState(w, op, t);
      return;
    }
    if (draft) return this.checkTokenize(w, op, p, caller, draft, res);
    if (res.status !== 200 || typeof res.body?.raw?.status !== 'number') w.fail(`${op}/status`, `react ${res.status}: ${res.text.slice(0, 300)}`);
    const inner: ApiResponse = { status: res.body.raw.status, headers: res.headers, body: res.body.raw.body ?? res.body.raw.error, text: res.text };
    const alts = patch ? w.model.expectPatch(p, t, patch, true) : w.model.expectGet(p, t, true);
    const alt = match(w, op, alts, inner);
    if (alt.data) checkData(w, op, `svc ${t.label}`, inner.body, alt.data);
    checkLeak(w, op, { ...inner, body: alt.data ? stripData(inner.body) : res.body }, false);
    alt.effect?.();
    if (patch) {
      await checkState(w, op, t);
      if (alt.status === 200) {
        await sweep(w, op, p, t, observers, couldReveal);
        if (patchesExposure(patch)) await oracleSweep(w, op, p, t, before, couldReveal);
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
    const alt = match(w, op, alts, res);
    if (alt.data) checkData(w, op, `tokenized ${draft.label}`, token, alt.data);
    checkLeak(w, op, alt.data ? { ...res, body: { ...res.body, tokens: { t: stripData(token) } } } : res, false);
    alt.effect?.();
    if (alt.status === 200) await checkState(w, op, draft);
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
