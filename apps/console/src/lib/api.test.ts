import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { components, paths } from '../generated/openapi';
import { api, apiUrl, type ApiBody, type ApiItem, type ApiPath, type ApiReply, type Page } from './api';
import type { PagedLoad, usePagedLoad } from './use-paged-load';
import type { ProxyView } from './proxies';
import type { MemberRole } from './session';
import type { Rule } from './rules';
import type { TenantKeys } from '../pages/Keys';
import type { LogEvent } from '../pages/Logs';
import type { Invitation, Member } from '../pages/Members';
import type { Webhook } from '../pages/Webhooks';
import type { Formula } from '../pages/Formulas';

type S = components['schemas'];

afterEach(() => vi.unstubAllGlobals());

function stubFetch(status: number, body?: unknown) {
  const fetch = vi.fn((_url: string, _init?: RequestInit) =>
    Promise.resolve(new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('api: one documented operation, typed by its path and method', () => {
  it('fills the path parameters (URI-encoded) and adds the query without its empty values', () => {
    expect(apiUrl('/applications/{id}/keys/{keyId}', { id: 'a 1', keyId: 'k/2' })).toBe('/applications/a%201/keys/k%2F2');
    expect(apiUrl('/logs', undefined, { page: 2, size: 50, entity_type: '', actor_id: undefined })).toBe('/logs?page=2&size=50');
    expect(() => apiUrl('/applications/{id}', {})).toThrow('no value for {id}');
  });

  it('sends the method, the JSON body and the key of the call, and answers the JSON reply', async () => {
    const fetch = stubFetch(200, { id: 'm1', role: 'ADMIN' });
    const member = await api('PUT', '/tenants/self/members/{id}', { params: { id: 'm1' }, body: { role: 'ADMIN' }, asKey: 'key_1' });
    expect(member.role).toBe('ADMIN');
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/tenants/self/members/m1');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({ role: 'ADMIN' });
    expect((init?.headers as Record<string, string>)['svc-api-key']).toBe('key_1');
  });

  it('answers undefined for a 204', async () => {
    stubFetch(204);
    await expect(api('DELETE', '/webhooks/{id}', { params: { id: 'w1' } })).resolves.toBeUndefined();
  });
});

// Type-level: checked by `nx run console:typecheck` (tsc), which fails when the console and docs/openapi.json disagree.
describe('the types the console uses are the ones generated from docs/openapi.json', () => {
  it('types replies, bodies and lists by path and method', () => {
    expectTypeOf<ApiReply<'GET', '/tokens/{id}'>>().toEqualTypeOf<S['TokenView']>();
    expectTypeOf<ApiReply<'POST', '/webhooks'>>().toEqualTypeOf<S['CreatedWebhookView']>();
    expectTypeOf<ApiReply<'DELETE', '/applications/{id}'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ApiReply<'POST', '/reactors/{id}/react'>>().toEqualTypeOf<S['ReactResponse'] | S['ReactAccepted']>();
    expectTypeOf<ApiBody<'PUT', '/tenants/self'>>().toEqualTypeOf<S['UpdateTenantRequest']>();
    expectTypeOf<ApiBody<'GET', '/tenants/self'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ApiItem<'/applications'>>().toEqualTypeOf<S['ApplicationView']>();
    expectTypeOf<ApiPath<'GET'>>().toEqualTypeOf<{ [P in keyof paths]: paths[P]['get'] extends undefined ? never : P }[keyof paths]>();
    expectTypeOf<ReturnType<typeof usePagedLoad<'/tenants/self/members'>>>().toEqualTypeOf<PagedLoad<S['MemberView']>>();
    expectTypeOf<S['TokenPage']>().toExtend<Page<S['TokenView']>>();
  });

  it('types the pages and helpers with the generated schemas, not their own interfaces', () => {
    expectTypeOf<TenantKeys>().toEqualTypeOf<S['TenantKeysView']>();
    expectTypeOf<LogEvent>().toEqualTypeOf<S['AuditEventView']>();
    expectTypeOf<Member>().toEqualTypeOf<S['MemberView']>();
    expectTypeOf<Invitation>().toEqualTypeOf<S['InvitationView']>();
    expectTypeOf<Webhook>().toEqualTypeOf<S['WebhookView']>();
    expectTypeOf<Formula>().toEqualTypeOf<S['ReactorFormulaView']>();
    expectTypeOf<ProxyView>().toEqualTypeOf<S['ProxyView']>();
    expectTypeOf<Rule>().toEqualTypeOf<S['AccessRuleView']>();
    expectTypeOf<MemberRole>().toEqualTypeOf<S['MemberView']['role']>();
  });

  it('refuses what the API reference does not describe', () => {
    const never = () => {
      // @ts-expect-error an undocumented path
      void api('GET', '/tokenz');
      // @ts-expect-error a method the path does not have
      void api('PATCH', '/applications');
      // @ts-expect-error the path parameters are required
      void api('GET', '/applications/{id}');
      // @ts-expect-error a parameter the path does not have
      void api('GET', '/applications/{id}', { params: { applicationId: 'a1' } });
      // @ts-expect-error a body member the request does not have
      void api('PUT', '/tenants/self/members/{id}', { params: { id: 'm1' }, body: { rol: 'ADMIN' } });
      // @ts-expect-error a role the API does not have
      void api('POST', '/tenants/self/invitations', { body: { email: 'a@example.com', role: 'OWNER' } });
      void api('GET', '/tokens/{id}', { params: { id: 't1' } }).then((t) => {
        // @ts-expect-error a reply member the API does not have (tokens have `containers`)
        void t.container;
      });
    };
    expect(never).toBeTypeOf('function');
  });
});
