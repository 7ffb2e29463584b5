/**
 * Issue 11, "Prove it": every route the running gateway registers × every class of credential.
 *
 * The routes come from the gateway itself (GET /docs/openapi.json); the test fails when a route has no row in
 * ROUTES (or a row names a route that no longer exists), and when a controller declares a route that the OpenAPI
 * document does not list. Routes Fastify serves outside Nest (health, readiness, the docs) are not in the
 * document as operations without a key (the document itself is not): they are listed in OPEN_ROUTES and checked to
 * answer the same to every credential.
 *
 * Expected statuses, from the contract: 401 for no / malformed / unknown / regenerated / deleted-application /
 * expired-session keys; 403 for a valid key without the route's permission (or a type that may not use the route)
 * and for a pending session; 404 for another tenant's resource id; otherwise the route's success status.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { OPS, operationRows } from '@coffer/contracts';
import { api, createTenant, type ApiResponse, type TestTenant, apiRaw, apiDynamic } from '@coffer/testing';
import { MANAGEMENT_PERMISSIONS, PUBLIC_PERMISSIONS, TOKEN_PERMISSIONS } from './access-model';

jest.setTimeout(180_000);

const CLASSES = [
  'none',
  'malformed',
  'unknown',
  'regenerated',
  'deleted',
  'public-with',
  'public-without',
  'private-with',
  'private-without',
  'management-with',
  'management-without',
  'session-pending',
  'session-authorized',
  'session-expired',
  'other-tenant',
] as const;
type Credential = (typeof CLASSES)[number];
const DEAD: Credential[] = ['none', 'malformed', 'unknown', 'regenerated', 'deleted', 'session-expired'];
/** token intents (docs/token-intents.md): public keys may create them; private keys also read and delete them */
const PUBLIC_ALL: string[] = [...PUBLIC_PERMISSIONS, 'token-intent:create'];
const PRIVATE_ALL: string[] = [...TOKEN_PERMISSIONS, 'token-intent:create', 'token-intent:read', 'token-intent:delete'];

type Kind = 'tokens' | 'management' | 'session-create' | 'session-authorize';
interface Req {
  path: string;
  body?: unknown;
  contentType?: string;
}
interface Row {
  kind: Kind;
  /** the route's permission decorator: any of these lets the key through */
  perms: string[];
  /** what the "-without" applications lack (default: perms) */
  without?: string[];
  success: number;
  /** the path names a resource of the tenant: another tenant's key gets 404 */
  scoped?: boolean;
  /** where the contract needs more than the default */
  overrides?: Partial<Record<Credential, number[]>>;
  request(ctx: Ctx, cls: Credential): Promise<Req>;
}

interface Ctx {
  a: TestTenant;
  b: TestTenant;
  /** setup-only management keys of tenant A and B (rate limits are per application) */
  adminA: string[];
  adminB: string;
  turn: number;
  tokenWriter: string;
  intentWriter: string;
  nonceMaker: string;
  tokenId: string;
  intentId: string;
  targetAppId: string;
  targetKeyId: string;
  formulaId: string;
  formulaB: string;
  reactorId: string;
  requestId: string;
  webhookId: string;
  proxyId: string;
}

const admin = (ctx: Ctx, cls: Credential) => (cls === 'other-tenant' ? ctx.adminB : ctx.adminA[ctx.turn++ % ctx.adminA.length]);
const PROXY = { name: 'matrix', destination_url: 'https://proxy.example.com/api' };
const FORMULA = { type: 'private', code: 'module.exports = async function () { return { raw: { ok: true } }; };' };

async function created(res: Promise<ApiResponse>, what: string): Promise<string> {
  const r = await res;
  if (r.status !== 201 && r.status !== 200) throw new Error(`setup: ${what}: ${r.status} ${r.text}`);
  return r.body.id ?? r.body.nonce;
}
const freshApp = (ctx: Ctx, cls: Credential) =>
  created(api('POST', '/applications', { key: admin(ctx, cls), body: { name: 'victim', type: 'private', permissions: ['token:read'] } }), 'victim application');
const freshKey = async (ctx: Ctx, cls: Credential) => {
  const app = await freshApp(ctx, cls);
  return `${app}/keys/${await created(api('POST', `/applications/${app}/keys`, { key: admin(ctx, cls) }), 'victim key')}`;
};
/** any live application key, whatever it may do; sessions are not applications (403) */
const ANY_APPLICATION = Object.fromEntries(
  (['public-with', 'public-without', 'private-with', 'private-without', 'management-with', 'management-without', 'other-tenant'] as const).map((c) => [
    c,
    [200],
  ]),
) as Partial<Record<Credential, number[]>>;
/** GET /ping: any live key, sessions included (the node SDK pings with whatever key it holds) */
const ANY_APPLICATION_204 = Object.fromEntries(
  (
    [
      'public-with',
      'public-without',
      'private-with',
      'private-without',
      'management-with',
      'management-without',
      'session-pending',
      'session-authorized',
      'other-tenant',
    ] as const
  ).map((c) => [c, [204]]),
) as Partial<Record<Credential, number[]>>;
const freshToken = (ctx: Ctx) => created(api('POST', '/tokens', { key: ctx.tokenWriter, body: { type: 'token', data: 'matrix victim' } }), 'victim token');
const freshIntent = (ctx: Ctx) =>
  created(api('POST', '/token-intents', { key: ctx.intentWriter, body: { type: 'token', data: 'matrix victim' } }), 'victim intent');
const freshFormula = (ctx: Ctx, cls: Credential) =>
  created(api('POST', '/reactor-formulas', { key: admin(ctx, cls), body: { name: `victim ${Math.random()}`, ...FORMULA } }), 'victim formula');
const freshReactor = async (ctx: Ctx, cls: Credential) =>
  created(api('POST', '/reactors', { key: admin(ctx, cls), body: { name: 'victim', configuration: {}, formula: { id: ctx.formulaId } } }), 'victim reactor');

const freshInvitation = (ctx: Ctx) =>
  created(
    api('POST', '/tenants/self/invitations', {
      key: admin(ctx, 'management-with'),
      body: { email: `matrix-${Math.random().toString(36).slice(2)}@example.test` },
    }),
    'victim invitation',
  );
/** no member joins tenant A in this file (that takes single sign-on: members/*.e2e): a member id is unknown, 404 after the checks */
const NO_MEMBER = { 'management-with': [404], 'other-tenant': [404] } as Partial<Record<Credential, number[]>>;
const SOME_MEMBER_ID = '7b0c7c1e-5a4e-4d6b-9a43-5d0f3c0b9e11';

/** One row per route the gateway registers: `METHOD /path/{param}` as in the OpenAPI document. */
const ROUTES: Record<string, Row> = {
  'POST /applications': {
    kind: 'management',
    perms: ['application:create'],
    success: 201,
    request: async () => ({ path: '/applications', body: { name: 'matrix', type: 'private', permissions: ['token:read'] } }),
  },
  'GET /applications': { kind: 'management', perms: ['application:read'], success: 200, request: async () => ({ path: '/applications' }) },
  'GET /applications/{id}': {
    kind: 'management',
    perms: ['application:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/applications/${c.targetAppId}` }),
  },
  'PUT /applications/{id}': {
    kind: 'management',
    perms: ['application:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/applications/${c.targetAppId}`, body: { name: 'target', permissions: ['token:read'] } }),
  },
  'DELETE /applications/{id}': {
    kind: 'management',
    perms: ['application:delete'],
    success: 204,
    scoped: true,
    request: async (c) => ({ path: `/applications/${await freshApp(c, 'private-with')}` }),
  },
  'POST /applications/{id}/access-preview': {
    kind: 'management',
    perms: ['application:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/applications/${c.targetAppId}/access-preview`, body: { container: '/', permission: 'token:read' } }),
  },
  'POST /applications/{id}/regenerate': {
    kind: 'management',
    perms: ['application:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/applications/${await freshApp(c, 'private-with')}/regenerate` }),
  },
  'GET /applications/key': { kind: 'management', perms: [], success: 200, overrides: ANY_APPLICATION, request: async () => ({ path: '/applications/key' }) },
  'POST /applications/{id}/keys': {
    kind: 'management',
    perms: ['application:update'],
    success: 201,
    scoped: true,
    request: async (c) => ({ path: `/applications/${await freshApp(c, 'private-with')}/keys` }),
  },
  'GET /applications/{id}/keys': {
    kind: 'management',
    perms: ['application:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/applications/${c.targetAppId}/keys` }),
  },
  'GET /applications/{id}/keys/{keyId}': {
    kind: 'management',
    perms: ['application:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/applications/${c.targetAppId}/keys/${c.targetKeyId}` }),
  },
  'DELETE /applications/{id}/keys/{keyId}': {
    kind: 'management',
    perms: ['application:update'],
    success: 204,
    scoped: true,
    request: async (c) => ({ path: `/applications/${await freshKey(c, 'private-with')}` }),
  },
  'GET /permissions': { kind: 'management', perms: [], success: 200, overrides: ANY_APPLICATION, request: async () => ({ path: '/permissions' }) },
  'GET /roles': { kind: 'management', perms: [], success: 200, overrides: ANY_APPLICATION, request: async () => ({ path: '/roles' }) },
  'GET /tenants/self/members': {
    kind: 'management',
    perms: ['tenant:member:read'],
    success: 200,
    request: async () => ({ path: '/tenants/self/members' }),
  },
  'GET /tenants/self/members/{id}': {
    kind: 'management',
    perms: ['tenant:member:read'],
    success: 200,
    overrides: NO_MEMBER,
    request: async () => ({ path: `/tenants/self/members/${SOME_MEMBER_ID}` }),
  },
  'PUT /tenants/self/members/{id}': {
    kind: 'management',
    perms: ['tenant:member:update'],
    success: 200,
    overrides: NO_MEMBER,
    request: async () => ({ path: `/tenants/self/members/${SOME_MEMBER_ID}`, body: { role: 'READ_ONLY' } }),
  },
  'DELETE /tenants/self/members/{id}': {
    kind: 'management',
    perms: ['tenant:member:delete'],
    success: 204,
    overrides: NO_MEMBER,
    request: async () => ({ path: `/tenants/self/members/${SOME_MEMBER_ID}` }),
  },
  'GET /tenants/self/owner': {
    kind: 'management',
    perms: ['tenant:member:read'],
    success: 200,
    overrides: NO_MEMBER,
    request: async () => ({ path: '/tenants/self/owner' }),
  },
  'PUT /tenants/self/owner': {
    kind: 'management',
    perms: ['tenant:owner:transfer'],
    success: 200,
    overrides: NO_MEMBER,
    request: async () => ({ path: '/tenants/self/owner', body: { member_id: SOME_MEMBER_ID } }),
  },
  'POST /tenants/self/invitations': {
    kind: 'management',
    perms: ['tenant:invitation:create'],
    success: 201,
    request: async () => ({ path: '/tenants/self/invitations', body: { email: `matrix-${Math.random().toString(36).slice(2)}@example.test` } }),
  },
  'GET /tenants/self/invitations': {
    kind: 'management',
    perms: ['tenant:invitation:read'],
    success: 200,
    request: async () => ({ path: '/tenants/self/invitations' }),
  },
  'GET /tenants/self/invitations/{id}': {
    kind: 'management',
    perms: ['tenant:invitation:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/tenants/self/invitations/${await freshInvitation(c)}` }),
  },
  'POST /tenants/self/invitations/{id}/resend': {
    kind: 'management',
    perms: ['tenant:invitation:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/tenants/self/invitations/${await freshInvitation(c)}/resend` }),
  },
  'DELETE /tenants/self/invitations/{id}': {
    kind: 'management',
    perms: ['tenant:invitation:delete'],
    success: 204,
    scoped: true,
    request: async (c) => ({ path: `/tenants/self/invitations/${await freshInvitation(c)}` }),
  },
  'GET /tenants/self': { kind: 'management', perms: ['tenant:read'], success: 200, request: async () => ({ path: '/tenants/self' }) },
  'PUT /tenants/self': {
    kind: 'management',
    perms: ['tenant:update'],
    success: 200,
    request: async () => ({ path: '/tenants/self', body: { name: 'matrix' } }),
  },
  'GET /tenants/self/webhook-secret': {
    kind: 'management',
    perms: ['tenant:read'],
    success: 200,
    request: async () => ({ path: '/tenants/self/webhook-secret' }),
  },
  'GET /tenants/self/keys': { kind: 'management', perms: ['tenant:read'], success: 200, request: async () => ({ path: '/tenants/self/keys' }) },
  'POST /tenants/self/webhook-secret/rotate': {
    kind: 'management',
    perms: ['tenant:update'],
    success: 200,
    request: async () => ({ path: '/tenants/self/webhook-secret/rotate' }),
  },
  'POST /sessions': { kind: 'session-create', perms: [], success: 201, request: async () => ({ path: '/sessions' }) },
  'POST /sessions/authorize': {
    kind: 'session-authorize',
    perms: [],
    success: 200,
    request: async (c) => ({
      path: '/sessions/authorize',
      body: { nonce: await created(api('POST', '/sessions', { key: c.nonceMaker }), 'pending session'), permissions: ['token:create'] },
    }),
  },
  'POST /tokens': {
    kind: 'tokens',
    perms: ['token:create'],
    success: 201,
    request: async () => ({ path: '/tokens', body: { type: 'token', data: 'matrix' } }),
  },
  'GET /tokens': { kind: 'tokens', perms: ['token:read'], success: 200, request: async () => ({ path: '/tokens' }) },
  'POST /token-intents': {
    kind: 'tokens',
    perms: ['token-intent:create'],
    success: 201,
    request: async () => ({ path: '/token-intents', body: { type: 'token', data: 'matrix' } }),
  },
  'GET /token-intents/{id}': {
    kind: 'tokens',
    perms: ['token-intent:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/token-intents/${c.intentId}` }),
  },
  'DELETE /token-intents/{id}': {
    kind: 'tokens',
    perms: ['token-intent:delete'],
    success: 204,
    scoped: true,
    request: async (c) => ({ path: `/token-intents/${await freshIntent(c)}` }),
  },
  'GET /tokens/{id}': { kind: 'tokens', perms: ['token:read'], success: 200, scoped: true, request: async (c) => ({ path: `/tokens/${c.tokenId}` }) },
  'PATCH /tokens/{id}': {
    kind: 'tokens',
    perms: ['token:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/tokens/${c.tokenId}`, body: { metadata: { touched: 'yes' } }, contentType: 'application/merge-patch+json' }),
  },
  'DELETE /tokens/{id}': {
    kind: 'tokens',
    perms: ['token:delete'],
    success: 204,
    scoped: true,
    request: async (c) => ({ path: `/tokens/${await freshToken(c)}` }),
  },
  'POST /tokens/search': {
    kind: 'tokens',
    perms: ['token:search'],
    success: 200,
    request: async () => ({ path: '/tokens/search', body: { query: 'type:token' } }),
  },
  'GET /v2/tokens': { kind: 'tokens', perms: ['token:read'], success: 200, request: async () => ({ path: '/v2/tokens?size=5' }) },
  'POST /v2/tokens/search': {
    kind: 'tokens',
    perms: ['token:search'],
    success: 200,
    request: async () => ({ path: '/v2/tokens/search', body: { query: 'type:token', size: 5 } }),
  },
  'POST /tokenize': {
    kind: 'tokens',
    perms: ['token:create'],
    success: 200,
    request: async () => ({ path: '/tokenize', body: { t: { type: 'token', data: 'matrix' } } }),
  },
  'POST /detokenize': {
    kind: 'tokens',
    // the decorator takes token:use or token:read; without token:use a plain read only masks, which is not enough
    perms: ['token:use', 'token:read'],
    without: ['token:use'],
    success: 200,
    // the id travels in the body: another tenant's reference is an unknown token (400), never its data
    overrides: { 'other-tenant': [400] },
    request: async (c) => ({ path: '/detokenize', body: { x: `{{ ${c.tokenId} }}` } }),
  },
  'GET /logs': { kind: 'management', perms: ['log:read'], success: 200, request: async () => ({ path: '/logs' }) },
  'POST /webhooks': {
    kind: 'management',
    perms: ['webhook:create'],
    success: 201,
    request: async () => ({ path: '/webhooks', body: { name: 'matrix', url: 'http://127.0.0.1:9/hook', events: ['token.created'] } }),
  },
  'GET /webhooks': { kind: 'management', perms: ['webhook:read'], success: 200, request: async () => ({ path: '/webhooks' }) },
  'POST /proxies': { kind: 'management', perms: ['proxy:create'], success: 201, request: async () => ({ path: '/proxies', body: PROXY }) },
  'GET /proxies': { kind: 'management', perms: ['proxy:read'], success: 200, request: async () => ({ path: '/proxies' }) },
  'GET /proxies/{id}': { kind: 'management', perms: ['proxy:read'], success: 200, scoped: true, request: async (c) => ({ path: `/proxies/${c.proxyId}` }) },
  'PUT /proxies/{id}': {
    kind: 'management',
    perms: ['proxy:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/proxies/${c.proxyId}`, body: { ...PROXY, name: 'matrix updated' } }),
  },
  'PATCH /proxies/{id}': {
    kind: 'management',
    perms: ['proxy:update'],
    success: 204,
    scoped: true,
    request: async (c) => ({ path: `/proxies/${c.proxyId}`, body: { name: 'matrix patched' }, contentType: 'application/merge-patch+json' }),
  },
  'DELETE /proxies/{id}': {
    kind: 'management',
    perms: ['proxy:delete'],
    success: 204,
    scoped: true,
    // a victim of tenant A per call (the shared one stays for the other rows)
    request: async (c) => ({ path: `/proxies/${await created(api('POST', '/proxies', { key: admin(c, 'management-with'), body: PROXY }), 'victim proxy')}` }),
  },
  'GET /webhooks/event-types': { kind: 'management', perms: ['webhook:read'], success: 200, request: async () => ({ path: '/webhooks/event-types' }) },
  'GET /webhooks/{id}': {
    kind: 'management',
    perms: ['webhook:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/webhooks/${c.webhookId}` }),
  },
  'PUT /webhooks/{id}': {
    kind: 'management',
    perms: ['webhook:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/webhooks/${c.webhookId}`, body: { name: 'matrix', url: 'http://127.0.0.1:9/hook', events: ['reactor.created'] } }),
  },
  'DELETE /webhooks/{id}': {
    kind: 'management',
    perms: ['webhook:delete'],
    success: 204,
    scoped: true,
    // a tenant holds at most five webhooks: a victim only for the classes that may delete (the others get 401/403/404
    // on the shared one, which stays)
    request: async (c, cls) => ({
      path: `/webhooks/${
        cls === 'management-with'
          ? await created(
              api('POST', '/webhooks', { key: c.adminA[0], body: { name: 'victim', url: 'http://127.0.0.1:9/v', events: ['token.created'] } }),
              'victim webhook',
            )
          : c.webhookId
      }`,
    }),
  },
  'GET /webhooks/{id}/deliveries': {
    kind: 'management',
    perms: ['webhook:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/webhooks/${c.webhookId}/deliveries` }),
  },
  // the permission check passes and the (unknown) delivery is a 404; re-sending itself: events/events-delivery.e2e
  'POST /webhooks/{id}/deliveries/{deliveryId}/resend': {
    kind: 'management',
    perms: ['webhook:update'],
    success: 404,
    scoped: true,
    request: async (c) => ({ path: `/webhooks/${c.webhookId}/deliveries/00000000-0000-4000-8000-000000000000/resend` }),
  },
  'GET /ping': { kind: 'management', perms: [], success: 204, overrides: ANY_APPLICATION_204, request: async () => ({ path: '/ping' }) },
  'GET /logs/entity-types': { kind: 'management', perms: ['log:read'], success: 200, request: async () => ({ path: '/logs/entity-types' }) },
  'POST /reactor-formulas': {
    kind: 'management',
    perms: ['reactor:create'],
    success: 201,
    request: async () => ({ path: '/reactor-formulas', body: { name: `matrix ${Math.random()}`, ...FORMULA } }),
  },
  'GET /reactor-formulas': { kind: 'management', perms: ['reactor:read'], success: 200, request: async () => ({ path: '/reactor-formulas' }) },
  'GET /reactor-formulas/{id}': {
    kind: 'management',
    perms: ['reactor:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/reactor-formulas/${c.formulaId}` }),
  },
  'PUT /reactor-formulas/{id}': {
    kind: 'management',
    perms: ['reactor:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/reactor-formulas/${c.formulaId}`, body: { name: 'matrix formula', ...FORMULA } }),
  },
  'DELETE /reactor-formulas/{id}': {
    kind: 'management',
    perms: ['reactor:delete'],
    success: 204,
    scoped: true,
    request: async (c) => ({ path: `/reactor-formulas/${await freshFormula(c, 'private-with')}` }),
  },
  'POST /reactors': {
    kind: 'management',
    perms: ['reactor:create'],
    success: 201,
    // another tenant creates a reactor of its own formula (its own tenant: success)
    request: async (c, cls) => ({
      path: '/reactors',
      body: { name: 'matrix', configuration: {}, formula: { id: cls === 'other-tenant' ? c.formulaB : c.formulaId } },
    }),
  },
  'GET /reactors': { kind: 'management', perms: ['reactor:read'], success: 200, request: async () => ({ path: '/reactors' }) },
  'GET /reactors/{id}': {
    kind: 'management',
    perms: ['reactor:read'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/reactors/${c.reactorId}` }),
  },
  'PUT /reactors/{id}': {
    kind: 'management',
    perms: ['reactor:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/reactors/${c.reactorId}`, body: { name: 'matrix reactor', configuration: {} } }),
  },
  'PATCH /reactors/{id}': {
    kind: 'management',
    perms: ['reactor:update'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/reactors/${c.reactorId}`, body: { name: 'matrix patched' }, contentType: 'application/merge-patch+json' }),
  },
  'DELETE /reactors/{id}': {
    kind: 'management',
    perms: ['reactor:delete'],
    success: 204,
    scoped: true,
    request: async (c) => ({ path: `/reactors/${await freshReactor(c, 'private-with')}` }),
  },
  'POST /reactors/{id}/react': {
    kind: 'tokens',
    perms: ['token:use'],
    success: 200,
    scoped: true,
    request: async (c) => ({ path: `/reactors/${c.reactorId}/react`, body: { args: {} } }),
  },
  'POST /reactors/{id}/react-async': {
    kind: 'tokens',
    perms: ['token:use'],
    success: 202,
    scoped: true,
    request: async (c) => ({ path: `/reactors/${c.reactorId}/react-async`, body: { args: {} } }),
  },
  'GET /reactors/{id}/results/{requestId}': {
    kind: 'tokens',
    perms: ['token:use', 'reactor:read'],
    success: 200,
    scoped: true,
    // the result was requested by private-with; a session holding token:use did not invoke it (contract silent: 403 or 404)
    overrides: { 'session-authorized': [403, 404] },
    request: async (c) => ({ path: `/reactors/${c.reactorId}/results/${c.requestId}` }),
  },
  // the proxy: past authentication and permission, a request without BT-PROXY-URL is the caller's 400 (nothing is sent)
  ...Object.fromEntries(
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((m) =>
      [
        ['/proxy', '/proxy'],
        ['/proxy/{path}', '/proxy/matrix'],
      ].map(([route, p]): [string, Row] => [
        `${m} ${route}`,
        { kind: 'tokens', perms: ['proxy:invoke', 'token:use'], success: 400, request: async () => ({ path: p }) },
      ]),
    ),
  ),
};

/** Served by Fastify outside Nest (not in the OpenAPI document): no key needed, the same answer for everyone. */
const OPEN_ROUTES: Record<string, number> = { 'GET /healthz': 200, 'GET /readyz': 200, 'GET /docs/openapi.json': 200 };

function expected(row: Row, cls: Credential): number[] {
  if (DEAD.includes(cls)) return [401];
  if (row.overrides?.[cls]) return row.overrides[cls] as number[];
  if (row.kind === 'session-create') return ['public-with', 'public-without', 'other-tenant'].includes(cls) ? [row.success] : [403];
  if (row.kind === 'session-authorize') {
    if (cls === 'private-with' || cls === 'private-without') return [row.success];
    return cls === 'other-tenant' ? [404] : [403];
  }
  if (cls === 'session-pending') return [403];
  const without = new Set(row.without ?? row.perms);
  const held: Record<string, string[]> = {
    'public-with': PUBLIC_ALL,
    'public-without': PUBLIC_ALL.filter((p) => !without.has(p)),
    'private-with': PRIVATE_ALL,
    'private-without': PRIVATE_ALL.filter((p) => !without.has(p)),
    'management-with': [...MANAGEMENT_PERMISSIONS],
    'management-without': MANAGEMENT_PERMISSIONS.filter((p) => !without.has(p)),
    'session-authorized': [...TOKEN_PERMISSIONS],
    'other-tenant': [...PRIVATE_ALL, ...MANAGEMENT_PERMISSIONS],
  };
  const has = held[cls] ?? [];
  // detokenize's "without" keeps token:read: a masked read is not a reveal, the service refuses per token (403)
  if (!row.perms.some((p) => has.includes(p)) || (row.without && !row.without.some((p) => has.includes(p)))) return [403];
  if (cls === 'other-tenant') return row.scoped ? [404] : [row.success];
  return [row.success];
}

/** The routes the gateway declares, as OpenAPI-style `GET /x/{id}`: `@Controller('x')` + `@Get(':id')` … in its sources, and the HTTP bindings of the operation rows (`@Route(row)`). */
function declaredRoutes(): string[] {
  const root = path.resolve(__dirname, '../../../gateway/src');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (e.name.endsWith('.controller.ts')) files.push(path.join(dir, e.name));
    }
  };
  walk(root);
  const out: string[] = [];
  for (const f of files) {
    const src = fs.readFileSync(f, 'utf8');
    const prefix = /@Controller\(\s*(?:'([^']*)')?\s*\)/.exec(src)?.[1] ?? '';
    for (const m of src.matchAll(/@(Get|Post|Put|Patch|Delete)\(\s*(?:'([^']*)')?\s*\)/g)) {
      const p = ['', prefix, m[2] ?? '']
        .filter((s, i) => i === 0 || s)
        .join('/')
        .replace(/:([A-Za-z]+)/g, '{$1}');
      out.push(`${m[1].toUpperCase()} ${p || '/'}`);
    }
  }
  // the routes bound by their operation row (@Route(row)): the row's binding is the route
  for (const row of operationRows(OPS)) if (row.http) out.push(`${row.http.method} ${row.http.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
  return out.sort();
}

describe('route matrix: every registered route × every credential class', () => {
  let ctx: Ctx;
  let openapiRoutes: string[];
  const keys = new Map<string, string>();
  let receiver: http.Server;
  /** route → the status each class got, printed at the end */
  const grid = new Map<string, number[]>();

  /** public applications and sessions may make 50 requests a minute: the rows take turns among three of each */
  // public keys are limited per application (RATE_LIMIT_PUBLIC): every row uses one, so they take turns
  const PUBLIC_TURNS = 4;
  const key = (row: Row, cls: Credential, index: number): string | undefined => {
    const tokenPermission = (p: string) => p.startsWith('token:') || p.startsWith('token-intent:');
    const kind = row.kind === 'management' || (row.kind === 'tokens' && !row.perms.some(tokenPermission)) ? 'management' : 'private';
    const without = (row.without ?? row.perms).join(',');
    switch (cls) {
      case 'none':
        return undefined;
      case 'malformed':
        return 'not a key at all; %00 "\\';
      case 'unknown':
        return `key_${Buffer.alloc(32, 7).toString('base64url')}`;
      case 'regenerated':
        return keys.get(`stale-${kind}`);
      case 'deleted':
        return keys.get(`deleted-${kind}`);
      case 'public-with':
        return keys.get(`public-all-${index % PUBLIC_TURNS}`);
      case 'public-without':
        return keys.get(`public-minus-${without}`) ?? keys.get(`public-all-${(index + 1) % PUBLIC_TURNS}`);
      case 'private-with':
        return keys.get('private-all');
      case 'private-without':
        return keys.get(`private-minus-${without}`) ?? keys.get('private-all');
      case 'management-with':
        return keys.get('management-all');
      case 'management-without':
        return keys.get(`management-minus-${without}`) ?? keys.get('management-all');
      case 'session-pending':
      case 'session-authorized':
        return keys.get(`${cls}-${index % PUBLIC_TURNS}`);
      case 'session-expired':
        return keys.get(cls);
      case 'other-tenant':
        if (row.kind === 'session-create') return keys.get('b-public');
        return keys.get(kind === 'management' ? 'b-management' : 'b-private');
    }
  };

  beforeAll(async () => {
    const a = await createTenant('matrix-a');
    const b = await createTenant('matrix-b');
    const mk = async (t: TestTenant, name: string, type: 'public' | 'private' | 'management', permissions: readonly string[]) => {
      const app = await t.app(type, { permissions: [...permissions] });
      keys.set(name, app.key);
      return app;
    };
    const adminA: string[] = [];
    for (let i = 0; i < 3; i++) adminA.push((await a.app('management', { permissions: [...MANAGEMENT_PERMISSIONS] })).key);
    const adminB = (await b.app('management', { permissions: [...MANAGEMENT_PERMISSIONS] })).key;

    for (let i = 0; i < PUBLIC_TURNS; i++) await mk(a, `public-all-${i}`, 'public', PUBLIC_ALL);
    await mk(a, 'private-all', 'private', PRIVATE_ALL);
    await mk(a, 'management-all', 'management', MANAGEMENT_PERMISSIONS);
    const withouts = new Set(Object.values(ROUTES).map((r) => (r.without ?? r.perms).join(',')));
    for (const w of withouts) {
      if (!w) continue;
      const drop = w.split(',');
      if (drop.some((p) => PUBLIC_ALL.includes(p)))
        await mk(
          a,
          `public-minus-${w}`,
          'public',
          PUBLIC_ALL.filter((p) => !drop.includes(p)),
        );
      if (drop.some((p) => PRIVATE_ALL.includes(p)))
        await mk(
          a,
          `private-minus-${w}`,
          'private',
          PRIVATE_ALL.filter((p) => !drop.includes(p)),
        );
      if (drop.some((p) => (MANAGEMENT_PERMISSIONS as readonly string[]).includes(p))) {
        await mk(
          a,
          `management-minus-${w}`,
          'management',
          MANAGEMENT_PERMISSIONS.filter((p) => !drop.includes(p)),
        );
      }
    }
    for (const [kind, type, perms] of [
      ['private', 'private', TOKEN_PERMISSIONS],
      ['management', 'management', MANAGEMENT_PERMISSIONS],
    ] as const) {
      const stale = await mk(a, `stale-${kind}`, type, perms);
      const regen = await api('POST', `/applications/${stale.id}/regenerate`, { key: adminA[0] });
      expect(regen.status).toBe(200);
      const gone = await mk(a, `deleted-${kind}`, type, perms);
      expect((await api('DELETE', `/applications/${gone.id}`, { key: adminA[0] })).status).toBe(204);
    }
    await mk(b, 'b-public', 'public', PUBLIC_ALL);
    await mk(b, 'b-private', 'private', PRIVATE_ALL);
    await mk(b, 'b-management', 'management', MANAGEMENT_PERMISSIONS);
    const tokenWriter = (await a.app('private', { permissions: ['token:create'] })).key;
    const intentWriter = (await a.app('private', { permissions: ['token-intent:create'] })).key;
    const nonceMaker = (await a.app('public', { permissions: [] })).key;
    const sessionMaker = (await a.app('public', { permissions: [] })).key;

    const session = async () => (await api('POST', '/sessions', { key: sessionMaker })).body as { session_key: string; nonce: string };
    for (let i = 0; i < PUBLIC_TURNS; i++) {
      const pending = await session();
      keys.set(`session-pending-${i}`, pending.session_key);
      const authorized = await session();
      expect(
        (await api('POST', '/sessions/authorize', { key: keys.get('private-all'), body: { nonce: authorized.nonce, permissions: [...TOKEN_PERMISSIONS] } }))
          .status,
      ).toBe(200);
      keys.set(`session-authorized-${i}`, authorized.session_key);
    }
    const expiring = await session();
    const expiresAt = new Date(Date.now() + 1000).toISOString();
    expect(
      (
        await api('POST', '/sessions/authorize', {
          key: keys.get('private-all'),
          body: { nonce: expiring.nonce, permissions: [...TOKEN_PERMISSIONS], expires_at: expiresAt },
        })
      ).status,
    ).toBe(200);
    keys.set('session-expired', expiring.session_key);

    const tokenId = await created(api('POST', '/tokens', { key: tokenWriter, body: { type: 'token', data: 'matrix token' } }), 'token');
    const intentId = await created(api('POST', '/token-intents', { key: intentWriter, body: { type: 'token', data: 'matrix intent' } }), 'intent');
    const targetAppId = await created(
      api('POST', '/applications', { key: adminA[0], body: { name: 'target', type: 'private', permissions: ['token:read'] } }),
      'target',
    );
    const targetKeyId = await created(api('POST', `/applications/${targetAppId}/keys`, { key: adminA[0] }), 'target key');
    const formulaId = await created(api('POST', '/reactor-formulas', { key: adminA[0], body: { name: 'matrix formula', ...FORMULA } }), 'formula');
    const formulaB = await created(api('POST', '/reactor-formulas', { key: adminB, body: { name: 'matrix formula b', ...FORMULA } }), 'formula b');
    const reactorId = await created(
      api('POST', '/reactors', { key: adminA[0], body: { name: 'matrix', configuration: {}, formula: { id: formulaId } } }),
      'reactor',
    );

    // an asynchronous invocation by private-with, delivered to a local receiver, gives a result to read
    let delivered = 0;
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        delivered++;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const job = await api('POST', `/reactors/${reactorId}/react`, { key: keys.get('private-all'), body: { args: {}, callback_url: callbackUrl } });
    expect(job.status).toBe(202);
    for (let i = 0; i < 200 && delivered === 0; i++) await new Promise((r) => setTimeout(r, 50));

    const webhookId = await created(
      api('POST', '/webhooks', { key: adminA[0], body: { name: 'matrix', url: 'http://127.0.0.1:9/hook', events: ['reactor.created'] } }),
      'webhook',
    );
    ctx = {
      a,
      b,
      adminA,
      adminB,
      turn: 0,
      tokenWriter,
      intentWriter,
      nonceMaker,
      tokenId,
      intentId,
      targetAppId,
      targetKeyId,
      formulaId,
      formulaB,
      reactorId,
      requestId: job.body.id,
      webhookId,
      proxyId: await created(api('POST', '/proxies', { key: adminA[0], body: PROXY }), 'proxy'),
    };
    const doc = await apiRaw('GET', '/docs/openapi.json');
    expect(doc.status).toBe(200);
    openapiRoutes = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    // the expiring session is past its expires_at by now
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) + 300 - Date.now())));
  });

  afterAll(async () => {
    await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  });

  it('every route the gateway documents has a row, and every row is a documented route', () => {
    const missing = openapiRoutes.filter((r) => !ROUTES[r] && !OPEN_ROUTES[r]);
    const stale = Object.keys(ROUTES).filter((r) => !openapiRoutes.includes(r));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it('every route a gateway controller declares is in the OpenAPI document', () => {
    const declared = declaredRoutes();
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.filter((r) => !openapiRoutes.includes(r))).toEqual([]);
  });

  it('routes served outside Nest answer every credential alike (no key needed)', async () => {
    const failures: string[] = [];
    for (const [route, status] of Object.entries(OPEN_ROUTES)) {
      const [method, p] = route.split(' ');
      for (const k of [undefined, 'not a key', keys.get('private-all'), keys.get('session-pending-0')]) {
        const res = await apiRaw(method, p, { key: k });
        if (res.status !== status) failures.push(`${route} with ${k ? 'a key' : 'no key'}: ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  for (const [index, route] of Object.keys(ROUTES).entries()) {
    it(`${route} × ${CLASSES.length} credential classes`, async () => {
      const row = ROUTES[route];
      const [method] = route.split(' ');
      const failures: string[] = [];
      const got: number[] = [];
      grid.set(route, got);
      for (const cls of CLASSES) {
        const req = await row.request(ctx, cls);
        const res = await apiDynamic(method, req.path, { key: key(row, cls, index), body: req.body, contentType: req.contentType });
        got.push(res.status);
        const want = expected(row, cls);
        if (!want.includes(res.status)) failures.push(`${cls}: ${res.status}, expected ${want.join(' or ')} — ${res.text.slice(0, 160)}`);
        else if (res.status >= 400 && (res.body?.status !== res.status || !String(res.headers.get('content-type')).startsWith('application/problem+json'))) {
          failures.push(`${cls}: ${res.status} is not a problem document: ${res.headers.get('content-type')} ${res.text.slice(0, 160)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it(`the matrix is ${Object.keys(ROUTES).length} routes × ${CLASSES.length} classes`, () => {
    const header = CLASSES.map((c, i) => `${String.fromCharCode(97 + i)}=${c}`).join(' ');
    const rows = [...grid.entries()].map(([route, statuses]) => `${statuses.join(' ')}  ${route}`);
    console.log(
      `[route matrix] ${Object.keys(ROUTES).length} routes × ${CLASSES.length} credential classes = ${Object.keys(ROUTES).length * CLASSES.length} cells ` +
        `(+ ${Object.keys(OPEN_ROUTES).length} open routes × 4)\ncolumns: ${header}\n${rows.join('\n')}`,
    );
  });
});
