/** Issue 25 item 4: every security-relevant act recorded with actor, trace id and changes; refusals aggregated; the hash chain. */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { api, apiRaw, control, createTenant, type TestTenant } from '@coffer/testing';
import { Receiver } from '../events/support';
import { Destination, proxy } from '../proxy/support';
import { Mailbox } from '../members/mailbox';
import { addAccount, signedIn } from '../members/sso';

const root = path.resolve(__dirname, '../../../..');
const GLOBAL = '00000000-0000-0000-0000-000000000000';

function admin(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/tools/admin/main.js'), ...args], {
    env: { ...process.env, DATABASE_URL: process.env['COFFER_E2E_DATABASE_URL'], KEY_ENCRYPTION_KEYS: process.env['COFFER_E2E_KEK'] },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// the chain tests run the operator CLI at each step (a node process that loads Prisma): slow on a loaded machine
jest.setTimeout(600_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A loopback address of its own (Linux answers all of 127.0.0.0/8): the socket address the gateway records refusals
 * under (it believes no X-Forwarded-For unless TRUST_PROXY says so).
 */
const loopback = () => `127.${Math.floor(Math.random() * 200) + 20}.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

/** A fresh trace id per act: the record is found by it. */
const trace = () => `audit-e2e-${randomUUID()}`;

describe('audit trail', () => {
  let db: Client;
  let tenant: TestTenant;
  let mk: string;
  let mgmtId: string;

  beforeAll(async () => {
    db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    tenant = await createTenant('audit-trail');
    mk = tenant.managementKey;
    // the management application the operator CLI created with the tenant (its create is recorded)
    // (retried: an overloaded test machine answers 503 now and then, by design of the back-pressure)
    let created = await api('GET', '/logs?actor_type=operator&entity_type=application', { key: mk });
    for (let i = 0; i < 30 && created.status !== 200; i++) {
      await sleep(1000);
      created = await api('GET', '/logs?actor_type=operator&entity_type=application', { key: mk });
    }
    mgmtId = created.body.data[0].entity_id;
    expect(mgmtId).toEqual(expect.any(String));
  });
  afterAll(async () => {
    await db.end();
  });

  /** Waits until token-service has sealed every record of the tenant into its chain. */
  async function sealed(tenantId: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM audit_unsealed u JOIN audit_events a ON a.id = u.event_id WHERE a.tenant_id = $1`, [
        tenantId,
      ]);
      if (rows[0].n === 0) return;
      await sleep(200);
    }
    throw new Error('audit records were not sealed within 20 s');
  }

  async function logsOf(traceId: string, key = mk) {
    const res = await api('GET', `/logs?trace_id=${encodeURIComponent(traceId)}`, { key });
    expect(res.status).toBe(200);
    return res.body.data as Array<Record<string, any>>;
  }

  describe('every management write, session and secret act is recorded with actor, trace id and changes, never a secret', () => {
    type Act = {
      name: string;
      run: (t: string) => Promise<{ status: number; body: any; secrets?: string[] }>;
      expect: {
        operation: string;
        entity_type: string;
        actor?: () => string;
        actor_type?: string;
        changes?: Record<string, unknown>;
        /** records the act writes (default 1); the one checked is the one of `operation` */
        records?: number;
      };
    };
    const ctx: Record<string, any> = {};
    // invitations are mailed: the people acts join through them (single sign-on, members/sso.ts)
    const mailbox = new Mailbox();
    beforeAll(() => mailbox.open());
    afterAll(async () => {
      await ctx['dest']?.stop();
      await mailbox.close();
    });
    /** A person invited with the management key who signs in through single sign-on: their member id. */
    const join = async (role: string): Promise<string> => {
      const email = `audit-${randomUUID().slice(0, 8)}@example.test`;
      const person = await addAccount({ email });
      const before = mailbox.mails.length;
      expect((await api('POST', '/tenants/self/invitations', { key: mk, body: { email, role } })).status).toBe(201);
      const session = await signedIn(person.sub, { invitation: await mailbox.invitationLink(email, before) });
      const me = await apiRaw('GET', '/console/session', { origin: 'console', headers: { cookie: session.cookie, 'x-coffer-csrf': session.csrf } });
      return me.body.user.member_id;
    };
    const call = async (method: string, p: string, key: string, t: string, body?: unknown, headers: Record<string, string> = {}) =>
      apiRaw(method, p, { key, body, headers: { 'SVC-TRACE-ID': t, ...headers } });
    const patch = async (p: string, key: string, t: string, body: unknown) =>
      apiRaw('PATCH', p, { key, body, contentType: 'application/merge-patch+json', headers: { 'SVC-TRACE-ID': t } });

    const acts: Act[] = [
      {
        name: 'POST /applications',
        run: async (t) => {
          const r = await call('POST', '/applications', mk, t, { name: 'audited app', type: 'private', permissions: ['token:read'] });
          ctx['app'] = r.body;
          return { ...r, secrets: [r.body.key] };
        },
        expect: {
          operation: 'create',
          entity_type: 'application',
          changes: { name: { new: 'audited app' }, type: { new: 'private' }, permissions: { new: ['token:read'] }, key: { redacted: true } },
        },
      },
      {
        name: 'PUT /applications/{id} (name and permissions)',
        run: (t) => call('PUT', `/applications/${ctx['app'].id}`, mk, t, { name: 'renamed app', permissions: ['token:read', 'token:create'] }),
        expect: {
          operation: 'update',
          entity_type: 'application',
          changes: { name: { old: 'audited app', new: 'renamed app' }, permissions: { old: ['token:read'], new: ['token:read', 'token:create'] } },
        },
      },
      {
        name: 'POST /applications/{id}/regenerate',
        run: async (t) => {
          const r = await call('POST', `/applications/${ctx['app'].id}/regenerate`, mk, t);
          ctx['appKey'] = r.body.key;
          return { ...r, secrets: [r.body.key] };
        },
        expect: { operation: 'regenerate', entity_type: 'application', changes: { key: { redacted: true } } },
      },
      {
        name: 'POST /applications/{id}/keys',
        run: async (t) => {
          const r = await call('POST', `/applications/${ctx['app'].id}/keys`, mk, t);
          ctx['key'] = r.body;
          return { ...r, secrets: [r.body.key] };
        },
        expect: { operation: 'create', entity_type: 'application_key', changes: { key: { redacted: true } } },
      },
      {
        name: 'DELETE /applications/{id}/keys/{keyId}',
        run: (t) => call('DELETE', `/applications/${ctx['app'].id}/keys/${ctx['key'].id}`, mk, t),
        expect: { operation: 'delete', entity_type: 'application_key' },
      },
      {
        name: 'PUT /tenants/self (a setting)',
        run: (t) => call('PUT', '/tenants/self', mk, t, { settings: { deduplicate_tokens: true } }),
        expect: { operation: 'update', entity_type: 'tenant', changes: { 'settings.deduplicate_tokens': { old: false, new: true } } },
      },
      {
        name: 'GET /tenants/self/webhook-secret',
        run: async (t) => {
          const r = await call('GET', '/tenants/self/webhook-secret', mk, t);
          return { ...r, secrets: [r.body.secret] };
        },
        expect: { operation: 'read', entity_type: 'webhook_secret' },
      },
      {
        name: 'POST /tenants/self/webhook-secret/rotate',
        run: async (t) => {
          const r = await call('POST', '/tenants/self/webhook-secret/rotate', mk, t);
          return { ...r, secrets: [r.body.secret] };
        },
        expect: { operation: 'rotate', entity_type: 'webhook_secret', changes: { secret: { redacted: true } } },
      },
      {
        name: 'POST /reactor-formulas',
        run: async (t) => {
          const r = await call('POST', '/reactor-formulas', mk, t, { name: 'audited formula', type: 'private', code: 'module.exports = async () => ({})' });
          ctx['formula'] = r.body;
          return r;
        },
        expect: { operation: 'create', entity_type: 'reactor_formula', changes: { name: { new: 'audited formula' } } },
      },
      {
        name: 'PUT /reactor-formulas/{id}',
        run: (t) =>
          call('PUT', `/reactor-formulas/${ctx['formula'].id}`, mk, t, {
            name: 'renamed formula',
            type: 'private',
            code: 'module.exports = async () => ({ a: 1 })',
          }),
        expect: {
          operation: 'update',
          entity_type: 'reactor_formula',
          changes: { name: { old: 'audited formula', new: 'renamed formula' }, code: { redacted: true } },
        },
      },
      {
        name: 'DELETE /reactor-formulas/{id}',
        run: (t) => call('DELETE', `/reactor-formulas/${ctx['formula'].id}`, mk, t),
        expect: { operation: 'delete', entity_type: 'reactor_formula' },
      },
      {
        name: 'POST /reactors (code, configuration holding a secret)',
        run: async (t) => {
          const r = await call('POST', '/reactors', mk, t, {
            name: 'audited reactor',
            code: 'module.exports = async function () { return { raw: {} }; };',
            configuration: { API_TOKEN: 'sk_live_configuration_secret' },
          });
          ctx['reactor'] = r.body;
          return { ...r, secrets: ['sk_live_configuration_secret'] };
        },
        expect: { operation: 'create', entity_type: 'reactor', changes: { name: { new: 'audited reactor' }, code: { redacted: true } } },
      },
      {
        name: 'PUT /reactors/{id}',
        run: async (t) => {
          const r = await call('PUT', `/reactors/${ctx['reactor'].id}`, mk, t, {
            name: 'renamed reactor',
            code: 'module.exports = async function () { return { raw: {} }; };',
            configuration: { API_TOKEN: 'sk_live_second_secret' },
          });
          return { ...r, secrets: ['sk_live_second_secret'] };
        },
        expect: {
          operation: 'update',
          entity_type: 'reactor',
          changes: { name: { old: 'audited reactor', new: 'renamed reactor' }, configuration: { redacted: true } },
        },
      },
      {
        name: 'PATCH /reactors/{id}',
        run: (t) => patch(`/reactors/${ctx['reactor'].id}`, mk, t, { name: 'patched reactor' }),
        expect: { operation: 'update', entity_type: 'reactor', changes: { name: { old: 'renamed reactor', new: 'patched reactor' } } },
      },
      {
        name: 'POST /reactors/{id}/react',
        run: async (t) => {
          ctx['user'] = await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:update', 'token:delete', 'token:use'] });
          return call('POST', `/reactors/${ctx['reactor'].id}/react`, ctx['user'].key, t, { args: { note: 'audited invocation' } });
        },
        expect: { operation: 'invoke', entity_type: 'reactor', actor: () => ctx['user'].id },
      },
      {
        name: 'POST /reactors/{id}/react-async',
        run: (t) => call('POST', `/reactors/${ctx['reactor'].id}/react-async`, ctx['user'].key, t, { args: {} }),
        expect: { operation: 'invoke', entity_type: 'reactor', actor: () => ctx['user'].id },
      },
      {
        name: 'DELETE /reactors/{id}',
        run: (t) => call('DELETE', `/reactors/${ctx['reactor'].id}`, mk, t),
        expect: { operation: 'delete', entity_type: 'reactor' },
      },
      {
        name: 'POST /sessions (public key)',
        run: async (t) => {
          const pub = await tenant.app('public', { permissions: ['token:create'] });
          ctx['pub'] = pub;
          const r = await call('POST', '/sessions', pub.key, t);
          ctx['session'] = r.body;
          return { ...r, secrets: [r.body.session_key, r.body.nonce] };
        },
        expect: { operation: 'create', entity_type: 'session', actor: () => ctx['pub'].id, actor_type: 'application' },
      },
      {
        name: 'POST /sessions/authorize (private key)',
        run: async (t) => {
          const priv = await tenant.app('private', { permissions: ['token:create', 'token:read'] });
          ctx['priv'] = priv;
          const r = await call('POST', '/sessions/authorize', priv.key, t, { nonce: ctx['session'].nonce, permissions: ['token:read'] });
          return { ...r, secrets: [ctx['session'].nonce, ctx['session'].session_key] };
        },
        expect: { operation: 'authorize', entity_type: 'session', actor: () => ctx['priv'].id, changes: { permissions: { new: ['token:read'] } } },
      },
      {
        name: 'DELETE /applications/{id}',
        run: (t) => call('DELETE', `/applications/${ctx['app'].id}`, mk, t),
        expect: { operation: 'delete', entity_type: 'application' },
      },
      {
        name: 'POST /tokens',
        run: async (t) => {
          const r = await call('POST', '/tokens', ctx['user'].key, t, { type: 'token', data: 'plaintext-audit-1' });
          ctx['token'] = r.body;
          return { ...r, secrets: ['plaintext-audit-1'] };
        },
        expect: { operation: 'create', entity_type: 'token', actor: () => ctx['user'].id },
      },
      {
        name: 'PATCH /tokens/{id}',
        run: async (t) => ({
          ...(await patch(`/tokens/${ctx['token'].id}`, ctx['user'].key, t, { data: 'plaintext-audit-2' })),
          secrets: ['plaintext-audit-2'],
        }),
        expect: { operation: 'update', entity_type: 'token', actor: () => ctx['user'].id },
      },
      {
        name: 'DELETE /tokens/{id}',
        run: (t) => call('DELETE', `/tokens/${ctx['token'].id}`, ctx['user'].key, t),
        expect: { operation: 'delete', entity_type: 'token', actor: () => ctx['user'].id },
      },
      {
        name: 'POST /tokenize',
        run: async (t) => ({
          ...(await call('POST', '/tokenize', ctx['user'].key, t, { type: 'token', data: 'plaintext-audit-3' })),
          secrets: ['plaintext-audit-3'],
        }),
        expect: { operation: 'create', entity_type: 'token', actor: () => ctx['user'].id },
      },
      {
        name: 'POST /token-intents (public key)',
        run: async (t) => {
          ctx['front'] = await tenant.app('public', { permissions: ['token-intent:create'] });
          const r = await call('POST', '/token-intents', ctx['front'].key, t, { type: 'card_number', data: '4000056655665556' });
          ctx['intent'] = r.body;
          return { ...r, secrets: ['4000056655665556'] };
        },
        expect: { operation: 'create', entity_type: 'token_intent', actor: () => ctx['front'].id },
      },
      {
        name: 'DELETE /token-intents/{id}',
        run: async (t) => {
          ctx['intents'] = await tenant.app('private', { permissions: ['token-intent:delete'] });
          return call('DELETE', `/token-intents/${ctx['intent'].id}`, ctx['intents'].key, t);
        },
        expect: { operation: 'delete', entity_type: 'token_intent', actor: () => ctx['intents'].id },
      },
      // every writing method of the proxy, with a query and a body that must never reach the record
      ...(['POST', 'PUT', 'PATCH', 'DELETE'] as const).flatMap((method) =>
        ['/proxy', '/proxy/{path}'].map(
          (route): Act => ({
            name: `${method} ${route}`,
            run: async (t) => {
              ctx['dest'] ??= await new Destination().start();
              const r = await proxy(method, route === '/proxy' ? '/proxy' : '/proxy/orders/1?card=query-secret', {
                key: ctx['user'].key,
                destination: ctx['dest'].url('/pay?session=destination-secret'),
                headers: { 'SVC-TRACE-ID': t },
                body: method === 'DELETE' ? undefined : JSON.stringify({ note: 'proxy-body-secret' }),
                contentType: method === 'DELETE' ? undefined : 'application/json',
              });
              // the record is written once the answer is known, without holding the answer back: wait for it
              for (let i = 0; i < 50 && (await logsOf(t)).length === 0; i++) await sleep(100);
              return { status: r.status, body: r.body, secrets: ['query-secret', 'destination-secret', 'proxy-body-secret', '/orders', '/pay'] };
            },
            expect: {
              operation: 'proxy',
              entity_type: 'proxy',
              actor: () => ctx['user'].id,
              changes: { method: { new: method }, status: { new: 200 }, duration_ms: { new: expect.any(Number) } },
            },
          }),
        ),
      ),
      {
        name: 'POST /webhooks',
        run: async (t) => {
          ctx['receiver'] = await new Receiver().start();
          const url = `${ctx['receiver'].url}?token=receiver-credential`;
          const r = await call('POST', '/webhooks', mk, t, { name: 'audited hook', url, events: ['application.created'] });
          ctx['webhook'] = r.body;
          // the webhook's signing secret is audited as redacted, never its value
          return { ...r, secrets: ['receiver-credential', String(r.body.signing_secret).slice(6)] };
        },
        expect: {
          operation: 'create',
          entity_type: 'webhook',
          changes: { name: { new: 'audited hook' }, events: { new: ['application.created'] }, signing_secret: { redacted: true } },
        },
      },
      {
        name: 'PUT /webhooks/{id}',
        run: (t) => call('PUT', `/webhooks/${ctx['webhook'].id}`, mk, t, { name: 'renamed hook', url: ctx['receiver'].url, events: ['application.created'] }),
        expect: { operation: 'update', entity_type: 'webhook', changes: { name: { old: 'audited hook', new: 'renamed hook' } } },
      },
      {
        name: 'POST /webhooks/{id}/deliveries/{deliveryId}/resend',
        run: async (t) => {
          // an event for the hook, delivered, then sent again
          await tenant.app('private', { permissions: ['token:read'] });
          let delivered: any[] = [];
          for (let i = 0; i < 100 && !delivered.length; i++) {
            await sleep(200);
            delivered = (await api('GET', `/webhooks/${ctx['webhook'].id}/deliveries?status=delivered`, { key: mk })).body.data ?? [];
          }
          expect(delivered.length).toBeGreaterThan(0);
          ctx['delivery'] = delivered[0];
          return call('POST', `/webhooks/${ctx['webhook'].id}/deliveries/${delivered[0].id}/resend`, mk, t);
        },
        expect: { operation: 'resend', entity_type: 'webhook_delivery' },
      },
      {
        name: 'DELETE /webhooks/{id}',
        run: async (t) => {
          const r = await call('DELETE', `/webhooks/${ctx['webhook'].id}`, mk, t);
          await ctx['receiver'].stop();
          return r;
        },
        expect: { operation: 'delete', entity_type: 'webhook' },
      },
      {
        name: 'POST /proxies',
        run: async (t) => {
          const r = await call('POST', '/proxies', mk, t, {
            name: 'audited proxy',
            destination_url: 'https://psp.example.com/v1',
            configuration: { API_KEY: 'proxy-configuration-secret' },
          });
          ctx['proxy'] = r.body;
          return { ...r, secrets: ['proxy-configuration-secret', r.body.key] };
        },
        expect: {
          operation: 'create',
          entity_type: 'proxy',
          changes: { name: { new: 'audited proxy' }, destination_url: { new: 'https://psp.example.com/v1' }, require_auth: { new: true } },
        },
      },
      {
        name: 'PUT /proxies/{id}',
        run: (t) =>
          call('PUT', `/proxies/${ctx['proxy'].id}`, mk, t, {
            name: 'renamed proxy',
            destination_url: 'https://psp.example.com/v1',
            configuration: { API_KEY: 'proxy-configuration-secret-2' },
          }),
        expect: {
          operation: 'update',
          entity_type: 'proxy',
          changes: { name: { old: 'audited proxy', new: 'renamed proxy' }, configuration: { redacted: true } },
        },
      },
      {
        name: 'PATCH /proxies/{id}',
        run: (t) => patch(`/proxies/${ctx['proxy'].id}`, mk, t, { require_auth: false }),
        expect: { operation: 'update', entity_type: 'proxy', changes: { require_auth: { old: true, new: false } } },
      },
      {
        name: 'DELETE /proxies/{id}',
        run: (t) => call('DELETE', `/proxies/${ctx['proxy'].id}`, mk, t),
        expect: { operation: 'delete', entity_type: 'proxy' },
      },
      {
        name: 'POST /tenants/self/invitations',
        run: async (t) => {
          const r = await call('POST', '/tenants/self/invitations', mk, t, { email: 'audited@example.test', role: 'DEVELOPER' });
          ctx['invitation'] = r.body;
          const link = await mailbox.invitationLink('audited@example.test');
          return { ...r, secrets: [link] };
        },
        expect: { operation: 'create', entity_type: 'tenant_invitation', changes: { email: { new: 'audited@example.test' }, role: { new: 'DEVELOPER' } } },
      },
      {
        name: 'POST /tenants/self/invitations/{id}/resend',
        run: (t) => call('POST', `/tenants/self/invitations/${ctx['invitation'].id}/resend`, mk, t),
        expect: { operation: 'resend', entity_type: 'tenant_invitation' },
      },
      {
        name: 'DELETE /tenants/self/invitations/{id}',
        run: (t) => call('DELETE', `/tenants/self/invitations/${ctx['invitation'].id}`, mk, t),
        expect: { operation: 'delete', entity_type: 'tenant_invitation', changes: { email: { old: 'audited@example.test' } } },
      },
      {
        name: 'PUT /tenants/self/members/{id}',
        run: async (t) => {
          // the first person to join owns the tenant; the second is the one changed
          ctx['owner'] = await join('ADMIN');
          ctx['member'] = await join('ADMIN');
          return call('PUT', `/tenants/self/members/${ctx['member']}`, mk, t, { role: 'READ_ONLY' });
        },
        expect: { operation: 'update', entity_type: 'tenant_member', changes: { role: { old: 'ADMIN', new: 'READ_ONLY' } } },
      },
      {
        name: 'PUT /tenants/self/owner',
        run: (t) => call('PUT', '/tenants/self/owner', mk, t, { member_id: ctx['member'] }),
        // the former owner's demotion and the new owner's promotion
        expect: { operation: 'transfer', entity_type: 'tenant_member', records: 2, changes: { role: { old: 'READ_ONLY', new: 'OWNER' } } },
      },
      {
        name: 'DELETE /tenants/self/members/{id}',
        run: (t) => call('DELETE', `/tenants/self/members/${ctx['owner']}`, mk, t),
        expect: { operation: 'delete', entity_type: 'tenant_member', changes: { role: { old: 'ADMIN' } } },
      },
    ];

    /**
     * Routes of the API reference that write nothing of their own: each with the reason. Every other POST, PUT,
     * PATCH and DELETE must have an act above; a new writing route without one fails the coverage test below.
     */
    const NOT_WRITES: Record<string, string> = {
      'POST /tokens/search': 'a search: each token it lists is audited as read',
      'POST /v2/tokens/search': 'a search: each token it lists is audited as read',
      'POST /detokenize': 'a read: each token it detokenizes is audited as read',
      'POST /applications/{id}/access-preview': 'computes an access decision, changes nothing',
    };

    it('covers every writing route of the API reference (a writing route without an audit act here fails)', async () => {
      const doc = await apiRaw('GET', '/docs/openapi.json');
      expect(doc.status).toBe(200);
      const writing = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, methods]) =>
        Object.keys(methods)
          .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => `${m.toUpperCase()} ${p}`),
      );
      expect(writing.length).toBeGreaterThan(20);
      const acted = new Set(acts.map((a) => a.name.split(' (')[0]));
      expect(writing.filter((r) => !acted.has(r) && !NOT_WRITES[r])).toEqual([]);
    });

    for (const act of acts)
      it(act.name, async () => {
        const t = trace();
        const out = await act.run(t);
        expect(out.status).toBeLessThan(300);
        const logs = await logsOf(t);
        expect(logs).toHaveLength(act.expect.records ?? 1);
        const log = logs.find((l) => l['operation'] === act.expect.operation) as Record<string, any>;
        expect(log).toMatchObject({
          tenant_id: tenant.tenantId,
          operation: act.expect.operation,
          entity_type: act.expect.entity_type,
          trace_id: t,
          actor_type: act.expect.actor_type ?? 'application',
          actor_id: act.expect.actor ? act.expect.actor() : mgmtId,
        });
        if (act.expect.changes) expect(log['changes']).toMatchObject(act.expect.changes);
        const text = JSON.stringify(log);
        for (const secret of out.secrets ?? []) expect(text).not.toContain(secret);
      });
  });

  it('GET /logs filters by actor, operation and entity, and refuses a bad actor_type with 400', async () => {
    const byOp = await api('GET', `/logs?operation=rotate&entity_type=webhook_secret`, { key: mk });
    expect(byOp.status).toBe(200);
    expect(byOp.body.data.length).toBeGreaterThan(0);
    expect(byOp.body.data.every((l: any) => l.operation === 'rotate' && l.entity_type === 'webhook_secret')).toBe(true);
    const byActor = await api('GET', `/logs?actor_id=${mgmtId}&actor_type=application&size=100`, { key: mk });
    expect(byActor.body.data.length).toBeGreaterThan(5);
    expect(byActor.body.data.every((l: any) => l.actor_id === mgmtId)).toBe(true);
    const operator = await api('GET', `/logs?actor_type=operator`, { key: mk });
    // the tenant was created by the operator CLI: the tenant and its management application
    expect(operator.body.data.map((l: any) => `${l.entity_type}.${l.operation}`).sort()).toEqual(['application.create', 'tenant.create']);
    expect(operator.body.data[0].actor_name).toEqual(expect.any(String));
    const bad = await api('GET', `/logs?actor_type=robot`, { key: mk });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty(['actor_type']);
  });

  it('refused authentications are aggregated: 200 bad keys from one address are one row (per minute) with count 200', async () => {
    const source = loopback();
    // 8 at a time: the gateway admits only a few requests with unresolved keys at once (503 beyond, by design)
    const sent: number[] = [];
    for (let i = 0; i < 25; i++)
      sent.push(
        ...(await Promise.all(
          Array.from({ length: 8 }, async () => (await apiRaw('GET', '/tokens', { key: `key_bad_${randomUUID()}`, localAddress: source })).status),
        )),
      );
    expect(sent.filter((s) => s !== 401)).toEqual([]);
    // the tenant's 403s count in its own chain and show in its /logs
    const weak = await tenant.app('private', { permissions: ['token:read'] });
    for (let i = 0; i < 7; i++) expect((await apiRaw('GET', '/applications', { key: weak.key, localAddress: source })).status).toBe(403);
    let rows: Array<{ tenant_id: string; entity_id: string; count: number }> = [];
    for (let i = 0; i < 60; i++) {
      rows = (await db.query(`SELECT tenant_id::text, entity_id, count FROM audit_events WHERE operation = 'refuse' AND source = $1`, [source])).rows;
      const total = rows.reduce((a, r) => a + r.count, 0);
      if (total >= 207) break;
      await sleep(250);
    }
    const invalid = rows.filter((r) => r.entity_id === 'invalid_key');
    expect(invalid.every((r) => r.tenant_id === GLOBAL)).toBe(true);
    expect(invalid.reduce((a, r) => a + r.count, 0)).toBe(200);
    expect(invalid.length).toBeLessThanOrEqual(2);
    const forbidden = await api('GET', `/logs?entity_type=authentication&operation=refuse`, { key: mk });
    const mine = forbidden.body.data.filter((l: any) => l.source === source);
    expect(mine.reduce((a: number, l: any) => a + l.count, 0)).toBe(7);
    expect(mine[0]).toMatchObject({ entity_id: 'forbidden', actor_type: 'anonymous', message: 'Authentication refused' });
  }, 120_000);

  it('refusals counted just before the gateway stops (SIGTERM) are recorded, not lost with the process', async () => {
    const source = loopback();
    for (let i = 0; i < 5; i++) expect((await apiRaw('GET', '/tokens', { key: `key_bad_${randomUUID()}`, localAddress: source })).status).toBe(401);
    // at once: the counts are sent every 5 s, so these are still in the gateway's memory
    await control('stop', 'gateway', 'SIGTERM');
    await control('start', 'gateway');
    let total = 0;
    for (let i = 0; i < 40 && total < 5; i++) {
      total = (await db.query(`SELECT coalesce(sum(count), 0)::int AS n FROM audit_events WHERE operation = 'refuse' AND source = $1`, [source])).rows[0].n;
      if (total < 5) await sleep(250);
    }
    expect(total).toBe(5);
  }, 60_000);

  describe('the hash chain', () => {
    let t2: TestTenant;
    beforeAll(async () => {
      t2 = await createTenant('audit-chain');
      for (let i = 0; i < 4; i++)
        expect(
          (await api('POST', '/applications', { key: t2.managementKey, body: { name: `chain ${i}`, type: 'private', permissions: ['token:read'] } })).status,
        ).toBe(201);
      await sealed(t2.tenantId);
    });

    const verify = () => {
      const r = admin('audit', 'verify', '--tenant', t2.tenantId, '--json');
      return { status: r.status, report: JSON.parse(r.stdout || '{}') as { ok: boolean; chains: Array<Record<string, any>> } };
    };

    it('verifies; an edited row is named (exit 1) until restored; a deleted row is named as missing', async () => {
      const ok = verify();
      expect(ok.status).toBe(0);
      expect(ok.report.chains[0]).toMatchObject({ tenantId: t2.tenantId, ok: true, records: 6 });
      expect(verify().report.ok).toBe(true);

      const { rows } = await db.query(
        `SELECT a.id, s.seq::int, a.entity_id FROM audit_seals s JOIN audit_events a ON a.id = s.event_id WHERE s.tenant_id = $1 ORDER BY s.seq`,
        [t2.tenantId],
      );
      const victim = rows[3];
      await db.query(`UPDATE audit_events SET entity_id = 'forged' WHERE id = $1`, [victim.id]);
      const altered = verify();
      expect(altered.status).toBe(1);
      expect(altered.report.chains[0]).toMatchObject({ ok: false, break: { kind: 'altered', id: victim.id, seq: victim.seq } });
      const text = admin('audit', 'verify', '--tenant', t2.tenantId);
      expect(text.status).toBe(1);
      expect(text.stdout).toContain(victim.id);
      await db.query(`UPDATE audit_events SET entity_id = $2 WHERE id = $1`, [victim.id, victim.entity_id]);
      expect(verify().status).toBe(0);

      await db.query(`DELETE FROM audit_events WHERE id = $1`, [rows[2].id]);
      const missing = verify();
      expect(missing.status).toBe(1);
      expect(missing.report.chains[0]).toMatchObject({ ok: false, break: { kind: 'missing', seq: rows[2].seq, id: rows[3].id } });

      // the last row deleted: the chain's head says more rows existed
      const t3 = await createTenant('audit-tail');
      await sealed(t3.tenantId);
      await db.query(`DELETE FROM audit_events WHERE id = (SELECT event_id FROM audit_seals WHERE tenant_id = $1 AND seq = 2)`, [t3.tenantId]);
      const tail = admin('audit', 'verify', '--tenant', t3.tenantId, '--json');
      expect(tail.status).toBe(1);
      expect(JSON.parse(tail.stdout).chains[0].break).toMatchObject({ kind: 'missing', seq: 2 });
    });

    it('pruning keeps the chain verifiable from its anchor, and is recorded', async () => {
      const t4 = await createTenant('audit-prune');
      for (let i = 0; i < 3; i++)
        await api('POST', '/applications', { key: t4.managementKey, body: { name: `p${i}`, type: 'private', permissions: ['token:read'] } });
      await sealed(t4.tenantId);
      // the tenant, its management application and the applications created (a 503 of a loaded machine creates none)
      const before = (await db.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1`, [t4.tenantId])).rows[0].n as number;
      expect(before).toBeGreaterThanOrEqual(2);
      const pruned = admin(
        'audit',
        'prune',
        '--tenant',
        t4.tenantId,
        '--before',
        new Date(Date.now() + 1000).toISOString(),
        '--json',
        '--actor',
        'e2e-operator',
      );
      expect(pruned.status).toBe(0);
      expect(JSON.parse(pruned.stdout)).toEqual({ pruned: { [t4.tenantId]: before } });
      const { rows } = await db.query(`SELECT anchor_seq::int FROM audit_chains WHERE tenant_id = $1`, [t4.tenantId]);
      expect(rows[0].anchor_seq).toBe(before);
      await api('POST', '/applications', { key: t4.managementKey, body: { name: 'after', type: 'private', permissions: ['token:read'] } });
      await sealed(t4.tenantId);
      const after = admin('audit', 'verify', '--tenant', t4.tenantId, '--json');
      expect(after.status).toBe(0);
      // the prune's own record and the new application
      expect(JSON.parse(after.stdout).chains[0]).toMatchObject({ ok: true, anchorSeq: before });
      expect(JSON.parse(after.stdout).chains[0].records).toBeGreaterThanOrEqual(1);
      const logs = await api('GET', '/logs?actor_type=operator&operation=prune', { key: t4.managementKey });
      expect(logs.body.data[0]).toMatchObject({ actor_id: 'e2e-operator', entity_type: 'audit_log', changes: { records: { new: before } } });
    });

    it('exports the sealed records in chain order as NDJSON and CSV, with seq and hash', async () => {
      const nd = admin('audit', 'export', '--tenant', tenant.tenantId, '--format', 'ndjson');
      expect(nd.status).toBe(0);
      const lines = nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.length).toBeGreaterThan(10);
      expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => lines[0].seq + i));
      expect(lines[0]).toMatchObject({ tenant_id: tenant.tenantId, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      const csv = admin('audit', 'export', '--tenant', tenant.tenantId, '--format', 'csv', '--since', '2000-01-01T00:00:00Z');
      expect(csv.status).toBe(0);
      expect(csv.stdout.split('\n')[0]).toBe(
        'seq,id,tenant_id,created_at,actor_type,actor_id,actor_name,actor_application_id,operation,entity_type,entity_id,trace_id,source,count,changes,hash',
      );
      expect(admin('audit', 'export', '--tenant', tenant.tenantId, '--format', 'xml').status).toBe(2);
      expect(admin('audit', 'export').status).toBe(2);
    });

    it('a CSV export guards every cell a spreadsheet would run as a formula (= + - @ tab CR get a leading quote)', async () => {
      // issue 34: an operator name (and, before TRUST_PROXY, a refusal's source) can be any text
      const formula = `=cmd|' /C calc'!A0`;
      expect(admin('audit', 'export', '--tenant', tenant.tenantId, '--format', 'ndjson', '--actor', formula).status).toBe(0);
      expect(admin('audit', 'export', '--tenant', tenant.tenantId, '--format', 'ndjson', '--actor', '@SUM(1+1)').status).toBe(0);
      // only these two records: the tenant's refusal windows are sealed minutes later, and the export skips them
      for (let i = 0; i < 100; i++) {
        const { rows } = await db.query(
          `SELECT count(*)::int AS n FROM audit_seals s JOIN audit_events a ON a.id = s.event_id WHERE s.tenant_id = $1 AND a.actor_name = ANY($2::text[])`,
          [tenant.tenantId, [formula, '@SUM(1+1)']],
        );
        if (rows[0].n === 2) break;
        await sleep(200);
      }
      const csv = admin('audit', 'export', '--tenant', tenant.tenantId, '--format', 'csv');
      expect(csv.status).toBe(0);
      const cells = csv.stdout
        .split('\n')
        .filter((l) => l.includes(',operator,'))
        .map((l) => l.split(','));
      const names = cells.map((c) => c[6]);
      expect(names).toEqual(expect.arrayContaining([`'${formula}`, `'@SUM(1+1)`]));
      // no cell anywhere starts a formula
      expect(
        csv.stdout
          .split('\n')
          .flatMap((l) => l.split(','))
          .filter((c) => /^[=+\-@\t\r]/.test(c)),
      ).toEqual([]);
    });
  });
});
