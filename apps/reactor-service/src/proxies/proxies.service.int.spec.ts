import { createHash, randomUUID } from 'node:crypto';
import { SUBJECTS, notFound, type Principal } from '@coffer/contracts';
import { EventBus, type CallContext } from '@coffer/bus';
import { AuditTrail, RecordedWrites, withActingContext } from '@coffer/operations';
import { insertTenant, principalOf, problemOf, recordingEventBus, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { ApplicationDirectory } from '../reactors/application-directory';
import { ProxiesService } from './proxies.service';
import { ProxyRepository } from './proxy.repository';
import { ProxyVault } from './proxy-vault';

/**
 * Pre-configured proxies against PostgreSQL and the real keyring. The key and the configuration are secrets: sealed
 * at rest under the tenant's data key (only the key's hash is a column), never in events or audit records, and a
 * destination's query (often a credential) is left out of both. Every write commits with its event and audit record;
 * another tenant's proxy is as unknown as a missing one. session-service's application lookup (NATS) is an
 * in-process directory of applications; the event bus records what is published.
 */
describe('ProxiesService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let proxies: ProxiesService;
  let tenantA: string;
  let tenantB: string;
  let a: Principal;
  let b: Principal;
  const bus = recordingEventBus();
  /** the applications session-service knows, by id */
  const applications = new Map<string, Principal>();
  const directory = {
    principalOf: async (call: CallContext, id: string) => {
      const app = applications.get(id);
      if (!app || app.tenantId !== call.principal?.tenantId) throw notFound('application');
      return app;
    },
  };

  const SECRET = 'sk_live_proxy_configuration_secret';
  const QUERY_SECRET = 'qs_live_credential_in_the_query';
  const body = (over: Record<string, unknown> = {}) => ({
    name: 'card processor',
    destination_url: `https://api.processor.example/v1?api_key=${QUERY_SECRET}`,
    configuration: { api_key: SECRET },
    request_transforms: [{ type: 'append_header', options: { location: 'x-static', value: 'literal' } }],
    ...over,
  });
  /** a use case as the operation dispatcher runs it: as its caller, in the acting context its audit records take their actor from */
  const as = <T>(p: Principal, work: () => Promise<T>, traceId = randomUUID()) => withActingContext({ principal: p, traceId }, work);
  /** an operation open to anyone, called without a principal (the gateway before authentication) */
  const anonymously = <T>(work: () => Promise<T>) => withActingContext({ traceId: randomUUID() }, work);
  const create = (p: Principal, over: Record<string, unknown> = {}) => as(p, () => proxies.create(body(over)));

  const row = async (id: string) => (await ctx.sql.query('SELECT * FROM proxies WHERE id = $1', [id])).rows[0];
  const count = async (tenant: string) => (await ctx.sql.query('SELECT count(*)::int AS n FROM proxies WHERE tenant_id = $1', [tenant])).rows[0].n as number;
  const events = async (proxyId: string) =>
    (await ctx.sql.query(`SELECT type, tenant_id::text, event FROM event_outbox WHERE event->'data'->'proxy'->>'id' = $1 ORDER BY seq`, [proxyId]))
      .rows as Array<{ type: string; tenant_id: string; event: { trace_id: string; data: { proxy: Record<string, unknown>; actor: unknown } } }>;
  const audits = async (proxyId: string) =>
    (
      await ctx.sql.query(
        `SELECT operation, tenant_id::text, actor_id, trace_id, changes FROM audit_events WHERE entity_type = 'proxy' AND entity_id = $1 ORDER BY created_at, operation`,
        [proxyId],
      )
    ).rows as Array<{ operation: string; tenant_id: string; actor_id: string; trace_id: string; changes: Record<string, unknown> | null }>;
  const changed = (proxyId: string) =>
    bus.published.filter((m) => m.subject === SUBJECTS.events.proxyChanged && (m.payload as { proxyId: string }).proxyId === proxyId);
  const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [ProxyRepository, ProxyVault, ProxiesService, ApplicationDirectory, AuditTrail, RecordedWrites, EventBus] }, [
      { provide: ApplicationDirectory, useValue: directory },
      { provide: EventBus, useValue: bus },
    ]);
    proxies = ctx.get(ProxiesService);
    tenantA = await insertTenant(ctx.sql);
    tenantB = await insertTenant(ctx.sql);
    a = principalOf(tenantA, { type: 'management', permissions: ['proxy:create', 'proxy:read', 'proxy:update', 'proxy:delete'] });
    b = principalOf(tenantB, { type: 'management', permissions: ['proxy:create', 'proxy:read', 'proxy:update', 'proxy:delete'] });
  });
  afterAll(() => ctx?.close());

  it('creates a proxy: a fresh 128-bit key, the key and configuration sealed at rest, its event and audit record without them', async () => {
    const traceId = randomUUID();
    const view = await as(a, () => proxies.create(body()), traceId);
    expect(view).toMatchObject({
      tenant_id: tenantA,
      name: 'card processor',
      destination_url: `https://api.processor.example/v1?api_key=${QUERY_SECRET}`,
      configuration: { api_key: SECRET },
      require_auth: true,
      disable_detokenization: false,
      state: 'active',
      request_transforms: [{ type: 'append_header', options: { location: 'x-static', value: 'literal' } }],
      response_transforms: [],
    });
    expect(view.key).toMatch(/^[0-9a-f]{32}$/);
    const other = await create(a, { name: 'second' });
    expect(other.key).not.toBe(view.key);

    // at rest: the key only as its hash, the configuration only inside the ciphertext
    const stored = await row(view.id);
    expect(stored.key_hash).toBe(sha256(view.key));
    expect(stored.tenant_id).toBe(tenantA);
    expect(stored.created_by).toBe(a.applicationId);
    const { secrets_ciphertext: ciphertext, ...columns } = stored;
    expect(JSON.stringify(columns)).not.toContain(SECRET);
    expect(JSON.stringify(columns)).not.toContain(view.key);
    const sealed = Buffer.from(ciphertext).toString('latin1');
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(view.key);

    // the event (to every subscribed webhook): no key, configuration, transforms or query
    const [created] = await events(view.id);
    expect(created.type).toBe('proxy.created');
    expect(created.tenant_id).toBe(tenantA);
    expect(created.event.trace_id).toBe(traceId);
    expect(created.event.data.proxy).toMatchObject({
      id: view.id,
      name: 'card processor',
      destination_url: 'https://api.processor.example/v1',
      require_auth: true,
    });
    expect(created.event.data.proxy).not.toHaveProperty('configuration');
    // the audit record: who, which trace, what changed (transforms only as changed), nothing secret
    const [audit] = await audits(view.id);
    expect(audit).toMatchObject({ operation: 'create', tenant_id: tenantA, actor_id: a.applicationId, trace_id: traceId });
    expect(audit.changes).toMatchObject({
      name: { new: 'card processor' },
      destination_url: { new: 'https://api.processor.example/v1' },
      request_transforms: { redacted: true },
    });
    for (const text of [JSON.stringify(created.event), JSON.stringify(audit)]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(QUERY_SECRET);
      expect(text).not.toContain(view.key);
      expect(text).not.toContain('literal');
    }
  });

  it('seals each proxy’s secrets for that proxy only: a ciphertext copied onto another proxy’s row does not open', async () => {
    const source = await create(a, { name: 'sealed source' });
    const target = await create(a, { name: 'sealed target', configuration: { api_key: 'target-secret' } });
    await ctx.sql.query(
      'UPDATE proxies SET secrets_ciphertext = s.secrets_ciphertext, secrets_key_id = s.secrets_key_id FROM proxies s WHERE s.id = $1 AND proxies.id = $2',
      [source.id, target.id],
    );
    await expect(as(a, () => proxies.get(target.id))).rejects.toThrow();
    expect(await as(a, () => proxies.get(source.id))).toEqual(source);
    // (the broken row would fail the tenant's lists in the tests that follow)
    await ctx.sql.query('DELETE FROM proxies WHERE id = $1', [target.id]);
  });

  it('reads a proxy back with its key and configuration decrypted, and lists only the tenant’s own (name and id filters, pages)', async () => {
    const first = await create(a, { name: 'Listed alpha' });
    const second = await create(a, { name: 'listed beta', configuration: {} });
    await create(b, { name: 'listed gamma' });

    const got = await as(a, () => proxies.get(first.id));
    expect(got).toEqual(first);
    expect(got.configuration).toEqual({ api_key: SECRET });

    const named = await as(a, () => proxies.list({ name: 'LISTED' }));
    expect(named.data.map((p) => p.id).sort()).toEqual([first.id, second.id].sort());
    expect(named.pagination).toMatchObject({ total_items: 2 });
    expect(named.data.find((p) => p.id === second.id)).toMatchObject({ key: second.key, configuration: {} });
    expect((await as(a, () => proxies.list({ name: 'listed*beta' }))).data.map((p) => p.id)).toEqual([second.id]);
    expect((await as(a, () => proxies.list({ id: [first.id, 'not-a-uuid'] }))).data.map((p) => p.id)).toEqual([first.id]);

    const all = await as(a, () => proxies.list({}));
    expect(all.pagination).toMatchObject({ total_items: await count(tenantA) });
    expect(all.data.every((p) => p.tenant_id === tenantA)).toBe(true);
    const paged = await as(a, () => proxies.list({ name: 'listed', size: '1', page: '2' }));
    expect(paged.pagination).toMatchObject({ total_items: 2, page_size: 1, total_pages: 2, page_number: 2 });
    expect(paged.data).toHaveLength(1);

    expect((await problemOf(as(a, () => proxies.list({ size: 'many' })))).status).toBe(400);
    expect((await problemOf(as(a, () => proxies.get('not-a-uuid')))).status).toBe(404);
    expect((await problemOf(as(a, () => proxies.get(randomUUID())))).status).toBe(404);
  });

  it('keeps tenants apart: another tenant can neither read, list, change, delete nor resolve a proxy', async () => {
    const mine = await create(a, { name: 'tenant A only' });
    const before = await row(mine.id);
    const published = bus.published.length;

    expect((await problemOf(as(b, () => proxies.get(mine.id)))).status).toBe(404);
    expect((await as(b, () => proxies.list({ id: mine.id }))).data).toEqual([]);
    expect((await as(b, () => proxies.list({ name: 'tenant A only' }))).data).toEqual([]);
    expect((await problemOf(as(b, () => proxies.update(mine.id, body({ name: 'taken' }))))).status).toBe(404);
    expect((await problemOf(as(b, () => proxies.patch(mine.id, { name: 'taken' })))).status).toBe(404);
    expect((await problemOf(as(b, () => proxies.delete(mine.id)))).status).toBe(404);

    // nothing changed, announced, evented or audited by the attempts
    expect(await row(mine.id)).toEqual(before);
    expect(bus.published.length).toBe(published);
    expect((await events(mine.id)).map((e) => e.type)).toEqual(['proxy.created']);
    expect((await audits(mine.id)).map((r) => r.operation)).toEqual(['create']);

    // the key resolves for its own tenant and for an anonymous call, never for another tenant's caller
    const hash = sha256(mine.key);
    expect(await as(a, () => proxies.resolve(hash))).toMatchObject({
      id: mine.id,
      tenantId: tenantA,
      requireAuth: true,
      requestTransforms: 1,
      responseTransforms: 0,
    });
    expect(await anonymously(() => proxies.resolve(hash))).toMatchObject({ id: mine.id });
    expect(await as(b, () => proxies.resolve(hash))).toBeNull();
    expect(await as(a, () => proxies.resolve(sha256('not a key')))).toBeNull();
  });

  it('replaces a proxy on PUT: same key, configuration sealed anew, absent members back to their defaults, announced, evented and audited', async () => {
    const original = await create(a, { require_auth: false, disable_detokenization: true });
    const sealedBefore = Buffer.from((await row(original.id)).secrets_ciphertext);
    const traceId = randomUUID();
    const updated = await as(
      a,
      () =>
        proxies.update(original.id, {
          name: 'renamed',
          destination_url: 'https://api.other.example/v2?token=another-credential',
          configuration: { api_key: 'rotated-secret-2', extra: 'x' },
        }),
      traceId,
    );
    expect(updated).toMatchObject({
      id: original.id,
      key: original.key,
      name: 'renamed',
      configuration: { api_key: 'rotated-secret-2', extra: 'x' },
      require_auth: true,
      disable_detokenization: false,
      request_transforms: [],
    });
    expect(await as(a, () => proxies.get(original.id))).toEqual(updated);

    const stored = await row(original.id);
    expect(stored.key_hash).toBe(sha256(original.key));
    expect(stored.modified_by).toBe(a.applicationId);
    expect(stored.modified_at).not.toBeNull();
    const sealed = Buffer.from(stored.secrets_ciphertext);
    expect(sealed.equals(sealedBefore)).toBe(false);
    expect(sealed.toString('latin1')).not.toContain('rotated-secret-2');
    // the same key still resolves the proxy, now with its new flags
    expect(await anonymously(() => proxies.resolve(sha256(original.key)))).toMatchObject({ id: original.id, requireAuth: true, requestTransforms: 0 });

    expect(changed(original.id)).toEqual([{ subject: SUBJECTS.events.proxyChanged, payload: { tenantId: tenantA, proxyId: original.id } }]);
    const evented = await events(original.id);
    expect(evented.map((e) => e.type)).toEqual(['proxy.created', 'proxy.updated']);
    expect(evented[1].event.data.proxy).toMatchObject({ name: 'renamed', destination_url: 'https://api.other.example/v2', modified_by: a.applicationId });
    const audit = (await audits(original.id)).find((r) => r.operation === 'update');
    expect(audit).toMatchObject({ trace_id: traceId, actor_id: a.applicationId });
    expect(audit?.changes).toEqual({
      name: { old: 'card processor', new: 'renamed' },
      destination_url: { old: 'https://api.processor.example/v1', new: 'https://api.other.example/v2' },
      require_auth: { old: false, new: true },
      disable_detokenization: { old: true, new: false },
      request_transforms: { redacted: true },
      configuration: { redacted: true },
    });
    for (const text of [JSON.stringify(evented), JSON.stringify(audit)]) {
      expect(text).not.toContain('rotated-secret-2');
      expect(text).not.toContain('another-credential');
      expect(text).not.toContain(original.key);
    }
  });

  it('merges a PATCH into the proxy (RFC 7386): only the members given change, null removes a configuration entry', async () => {
    const original = await create(a, { configuration: { api_key: SECRET, region: 'eu' } });
    const patched = await as(a, () => proxies.patch(original.id, { name: 'patched', configuration: { region: null, added: 'new' } }));
    expect(patched).toMatchObject({
      key: original.key,
      name: 'patched',
      destination_url: original.destination_url,
      request_transforms: original.request_transforms,
      configuration: { api_key: SECRET, added: 'new' },
      require_auth: true,
    });
    expect(await as(a, () => proxies.get(original.id))).toEqual(patched);

    // a patch that breaks the merged proxy is refused as a PUT would be, and changes nothing
    const before = await row(original.id);
    const problem = await problemOf(as(a, () => proxies.patch(original.id, { destination_url: 'http://api.processor.example' })));
    expect(problem.status).toBe(400);
    expect(problem.errors?.['destination_url']).toEqual(['must use https']);
    expect((await problemOf(as(a, () => proxies.patch(original.id, [{ name: 'x' }])))).status).toBe(400);
    expect(await row(original.id)).toEqual(before);
  });

  it('deletes a proxy: gone for reads and key lookups, announced, evented and audited once; a second delete is a 404', async () => {
    const doomed = await create(a);
    const traceId = randomUUID();
    await as(a, () => proxies.delete(doomed.id), traceId);
    expect(await row(doomed.id)).toBeUndefined();
    expect((await problemOf(as(a, () => proxies.get(doomed.id)))).status).toBe(404);
    expect(await anonymously(() => proxies.resolve(sha256(doomed.key)))).toBeNull();
    expect(changed(doomed.id)).toHaveLength(1);
    const evented = await events(doomed.id);
    expect(evented.map((e) => e.type)).toEqual(['proxy.created', 'proxy.deleted']);
    expect(evented[1].event.trace_id).toBe(traceId);
    expect((await audits(doomed.id)).map((r) => [r.operation, r.trace_id === traceId])).toEqual([
      ['create', false],
      ['delete', true],
    ]);

    expect((await problemOf(as(a, () => proxies.delete(doomed.id)))).status).toBe(404);
    expect((await problemOf(as(a, () => proxies.delete('not-a-uuid')))).status).toBe(404);
    expect(changed(doomed.id)).toHaveLength(1);
    expect((await audits(doomed.id)).map((r) => r.operation)).toEqual(['create', 'delete']);
  });

  it('refuses invalid bodies with 400 and field errors, storing, announcing and auditing nothing', async () => {
    const stored = await count(tenantA);
    const audited = (await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE entity_type = 'proxy'`)).rows[0].n;
    const published = bus.published.length;
    const refused = async (over: Record<string, unknown>) => {
      const problem = await problemOf(create(a, over));
      expect(problem.status).toBe(400);
      return problem.errors ?? {};
    };

    expect(Object.keys(await refused({ name: undefined }))).toContain('name');
    expect((await refused({ name: '' }))['name']).toBeDefined();
    expect((await refused({ destination_url: 'http://api.processor.example' }))['destination_url']).toEqual(['must use https']);
    expect((await refused({ destination_url: 'https://10.0.0.1/x' }))['destination_url']).toEqual(['must name the host by DNS name, not by IP address']);
    expect((await refused({ destination_url: 'https://user:pw@api.processor.example' }))['destination_url']).toEqual(['must not carry credentials']);
    expect((await refused({ configuration: { api_key: 42 } }))['configuration.api_key']).toEqual(['must be a string']);
    expect(
      (await refused({ request_transforms: [{ type: 'mask', matcher: 'regex', expression: 'no group', replacement: '*' }] }))[
        'request_transforms[0].expression'
      ],
    ).toEqual(['must have at least one capture group']);
    expect(Object.keys(await refused({ request_transform: { type: 'code', code: 'x' } }))).toContain('request_transform');
    // tokenize transforms create tokens as the proxy's application: one is required, public or private, holding token:create
    const tokenize = { request_transforms: [{ type: 'tokenize', expression: '$.card' }] };
    expect((await refused(tokenize))['application']).toBeDefined();
    const management = principalOf(tenantA, { type: 'management', permissions: ['token:create'] });
    const reader = principalOf(tenantA, { type: 'private', permissions: ['token:read'] });
    applications.set(management.applicationId, management);
    applications.set(reader.applicationId, reader);
    expect((await refused({ ...tokenize, application: { id: management.applicationId } }))['application.id']).toEqual([
      'must be a public or private application',
    ]);
    expect((await refused({ ...tokenize, application: { id: reader.applicationId } }))['application.id']).toEqual([
      'must hold token:create: tokenize transforms create tokens as it',
    ]);
    for (const wrong of ['not an object', [body()], null]) expect((await problemOf(as(a, () => proxies.create(wrong)))).status).toBe(400);

    expect(await count(tenantA)).toBe(stored);
    expect((await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE entity_type = 'proxy'`)).rows[0].n).toBe(audited);
    expect(bus.published.length).toBe(published);
  });

  it('binds a proxy to an application of its own tenant only: another tenant’s application is unknown (404)', async () => {
    const tokenizer = principalOf(tenantA, { type: 'private', permissions: ['token:create'] });
    const foreign = principalOf(tenantB, { type: 'private', permissions: ['token:create'] });
    applications.set(tokenizer.applicationId, tokenizer);
    applications.set(foreign.applicationId, foreign);
    const tokenize = { request_transforms: [{ type: 'tokenize', expression: '$.card', options: { token: { type: 'card' } } }] };

    const bound = await create(a, { ...tokenize, application: { id: tokenizer.applicationId } });
    expect(bound.application_id).toBe(tokenizer.applicationId);
    expect((await row(bound.id)).application_id).toBe(tokenizer.applicationId);
    expect((await problemOf(create(a, { ...tokenize, application: { id: foreign.applicationId } }))).status).toBe(404);

    // a PATCH that leaves the application alone keeps it (the merged proxy is checked again, and still valid)
    const patched = await as(a, () => proxies.patch(bound.id, { name: 'still bound' }));
    expect(patched.application_id).toBe(tokenizer.applicationId);
    // removing it while tokenize transforms remain is refused
    const problem = await problemOf(as(a, () => proxies.patch(bound.id, { application: null })));
    expect(problem.errors?.['application']).toBeDefined();
  });
});
