/**
 * Issue 13 item 6: @basis-theory/basis-theory-js 4.30.2, unchanged, against Coffer. It sends collection calls with a
 * trailing slash, body-less POSTs as application/x-www-form-urlencoded, the react body as written (camelCase), and
 * camelCases every reply (dates stay ISO strings): each operation the issue lists, through the SDK itself.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { VISA, createTenant, type TestTenant } from '@coffer/testing';
import { btJs, eventually, type BtJs } from './support';

jest.setTimeout(60_000);

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const ECHO = 'module.exports = async function (req) { return { raw: { got: req.args.x, cfg: req.configuration.greeting } }; };';

/** The SDK's error: BasisTheoryApiError with the HTTP status and the problem body. */
async function failure(p: Promise<unknown>): Promise<{ status: number; data: any }> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as { name?: string; status: number; data: any } | undefined;
  if (!err) throw new Error('expected the call to fail');
  expect(err.name).toBe('BasisTheoryApiError');
  return err;
}

describe('@basis-theory/basis-theory-js 4.30.2', () => {
  let tenant: TestTenant;
  let mgmt: BtJs;
  let backend: BtJs;
  let backendId: string;

  beforeAll(async () => {
    tenant = await createTenant('bt-js');
    mgmt = await btJs(tenant.managementKey);
    const app = await mgmt.applications.create({
      name: 'Backend',
      type: 'private',
      permissions: ['token:create', 'token:read', 'token:update', 'token:delete', 'token:search', 'token:use'],
    });
    backendId = app.id;
    backend = await btJs(app.key as string);
  });

  describe('tokens', () => {
    it('create, retrieve, update (merge patch), delete: camelCase fields, data and metadata as given', async () => {
      const created = await backend.tokens.create({
        type: 'card',
        data: { number: VISA, expiration_month: 12, expiration_year: 2030 },
        metadata: { customer_ref: 'c-42' },
        searchIndexes: ['{{ data.number | last4 }}'],
      });
      expect(created).toMatchObject({ type: 'card', tenantId: tenant.tenantId, containers: ['/pci/high/'], metadata: { customer_ref: 'c-42' } });
      expect(created.createdAt).toMatch(ISO);
      expect(created.fingerprintExpression).toBe('{{ data | stringify }}');
      const got = await backend.tokens.retrieve(created.id);
      expect(got.data).toEqual({ number: VISA, expiration_month: 12, expiration_year: 2030 });
      expect(got.createdBy).toBe(backendId);
      const updated = await backend.tokens.update(created.id, { metadata: { customer_ref: 'c-43' } });
      expect(updated.metadata).toEqual({ customer_ref: 'c-43' });
      expect(updated.modifiedAt).toMatch(ISO);
      await backend.tokens.delete(created.id);
      expect((await failure(backend.tokens.retrieve(created.id))).status).toBe(404);
    });

    it('list (GET /tokens/ with metadata and paging) and search', async () => {
      for (let i = 0; i < 3; i++) await backend.tokens.create({ type: 'token', data: `listed-${i}`, metadata: { batch: 'bt-js-batch' } });
      const page = await backend.tokens.list({ metadata: { batch: 'BT-JS-BATCH' }, page: 1, size: 2 });
      expect(page.data).toHaveLength(2);
      expect(page.pagination).toEqual({ totalItems: 3, pageNumber: 1, pageSize: 2, totalPages: 2 });
      expect(page.data[0].metadata).toEqual({ batch: 'bt-js-batch' });
      const second = await backend.tokens.list({ metadata: { batch: 'bt-js-batch' }, page: 2, size: 2 });
      expect(second.data).toHaveLength(1);
      const found = await backend.tokens.search({ query: 'metadata.batch:bt-js-batch', size: 10 });
      expect(found.pagination.totalItems).toBe(3);
      expect(found.data.every((t) => t.type === 'token')).toBe(true);
    });

    it('tokenize (POST /tokenize/)', async () => {
      const out = (await backend.tokenize({ card: { type: 'card_number', data: VISA }, plain: 'hello' })) as Record<string, any>;
      expect(out['card']).toMatchObject({ type: 'card_number', data: 'XXXXXXXXXXXX4242', tenant_id: tenant.tenantId });
      expect(typeof out['plain']).toBe('string');
    });

    it('errors arrive as BasisTheoryApiError with the status and the problem body', async () => {
      const bad = await failure(backend.tokens.create({ type: 'card', data: { number: '4242424242424241' } }));
      expect(bad.status).toBe(400);
      // the SDK camelCases every reply, error field paths included ("data.number" → "dataNumber")
      expect(bad.data.errors).toEqual({ dataNumber: ['must pass the Luhn check'] });
      expect((await failure(mgmt.tokens.list())).status).toBe(403);
      expect((await failure((await btJs('key_nope')).tokens.list())).status).toBe(401);
    });
  });

  describe('sessions', () => {
    it('create (a body-less POST sent as form data) and authorize; the session key then works', async () => {
      const web = await mgmt.applications.create({ name: 'Web', type: 'public', permissions: ['token:create'] });
      const session = await (await btJs(web.key as string)).sessions.create();
      expect(session).toMatchObject({ sessionKey: expect.any(String), nonce: expect.any(String), expiresAt: expect.stringMatching(ISO) });
      await backend.sessions.authorize({ nonce: session.nonce, permissions: ['token:read'] });
      const token = await backend.tokens.create({ type: 'token', data: 'for the session' });
      const viaSession = await btJs(session.sessionKey);
      expect((await viaSession.tokens.retrieve(token.id)).id).toBe(token.id);
    });
  });

  describe('applications, keys, permissions', () => {
    it('create, retrieve, update, list, retrieveByKey, regenerateKey, delete', async () => {
      const created = await mgmt.applications.create({ name: 'Svc', type: 'private', permissions: ['token:read'] });
      expect(created).toMatchObject({ name: 'Svc', type: 'private', tenantId: tenant.tenantId, key: expect.stringMatching(/^key_/) });
      expect(created.createdAt).toMatch(ISO);
      const got = await mgmt.applications.retrieve(created.id);
      expect(got.key).toBeUndefined();
      const updated = await mgmt.applications.update(created.id, { name: 'Svc 2', permissions: ['token:read', 'token:search'] });
      expect(updated).toMatchObject({ name: 'Svc 2', permissions: ['token:read', 'token:search'], modifiedAt: expect.stringMatching(ISO) });
      const list = await mgmt.applications.list({ page: 1, size: 100 });
      expect(list.pagination).toMatchObject({ pageNumber: 1, pageSize: 100 });
      expect(list.data.map((a) => a.id)).toContain(created.id);
      const self = await (await btJs(created.key as string)).applications.retrieveByKey();
      expect(self.id).toBe(created.id);
      const regenerated = await mgmt.applications.regenerateKey(created.id);
      expect(regenerated.key).toMatch(/^key_/);
      expect(regenerated.key).not.toBe(created.key);
      expect((await failure((await btJs(created.key as string)).applications.retrieveByKey())).status).toBe(401);
      await mgmt.applications.delete(created.id);
      expect((await failure(mgmt.applications.retrieve(created.id))).status).toBe(404);
    });

    it('applicationKeys: create, get (list), getById, delete', async () => {
      const app = await mgmt.applications.create({ name: 'Keys', type: 'private', permissions: ['token:read'] });
      const extra = await mgmt.applicationKeys.create(app.id);
      expect(extra).toMatchObject({ id: expect.any(String), key: expect.stringMatching(/^key_/), createdAt: expect.stringMatching(ISO) });
      const keys = await mgmt.applicationKeys.get(app.id);
      expect(keys.map((k) => k.id)).toHaveLength(2);
      expect((await mgmt.applicationKeys.getById(app.id, extra.id as string)).id).toBe(extra.id);
      await mgmt.applicationKeys.delete(app.id, extra.id as string);
      expect((await failure((await btJs(extra.key as string)).applications.retrieveByKey())).status).toBe(401);
    });

    it('permissions.list (GET /permissions/), also by application type', async () => {
      const all = await mgmt.permissions.list();
      expect(all).toContainEqual({ type: 'token:use', description: expect.any(String), applicationTypes: ['private'] });
      const pub = await mgmt.permissions.list({ applicationType: 'public' } as never);
      expect(pub.map((p) => p.type).sort()).toEqual(['token-intent:create', 'token:create', 'token:update']);
    });
  });

  describe('tenant and logs', () => {
    it('tenants.retrieve and update (PUT /tenants/self/)', async () => {
      const t = await mgmt.tenants.retrieve();
      expect(t).toMatchObject({ id: tenant.tenantId, createdAt: expect.stringMatching(ISO) });
      const updated = await mgmt.tenants.update({ name: 'bt-js tenant', settings: { deduplicate_tokens: 'false' } } as never);
      expect(updated.name).toBe('bt-js tenant');
      expect(updated.settings).toEqual({ deduplicateTokens: false });
    });

    it('logs.list (GET /logs/) with filters and paging', async () => {
      const token = await backend.tokens.create({ type: 'token', data: 'audited' });
      const page = await mgmt.logs.list({ entityType: 'token', entityId: token.id, page: 1, size: 10 });
      expect(page.pagination).toMatchObject({ totalItems: 1, pageNumber: 1, pageSize: 10 });
      expect(page.data[0]).toMatchObject({
        entityId: token.id,
        entityType: 'token',
        operation: 'create',
        actorId: backendId,
        actorType: 'application',
        message: 'Token created',
      });
      expect(page.data[0].createdAt).toMatch(ISO);
    });
  });

  describe('reactor formulas and reactors', () => {
    it('formulas: create, retrieve, update, list, delete', async () => {
      const f = await mgmt.reactorFormulas.create({
        name: 'bt-js formula',
        type: 'private',
        code: ECHO,
        configuration: [{ name: 'greeting', type: 'string' }],
        requestParameters: [{ name: 'card.number', type: 'string', optional: true }],
      } as never);
      expect(f).toMatchObject({ name: 'bt-js formula', status: 'verified', requestParameters: [{ name: 'card.number', type: 'string', optional: true }] });
      expect((await mgmt.reactorFormulas.retrieve(f.id)).code).toBe(ECHO);
      const updated = await mgmt.reactorFormulas.update(f.id, {
        name: 'bt-js formula 2',
        type: 'private',
        code: ECHO,
        configuration: [],
        requestParameters: [],
      } as never);
      expect(updated).toMatchObject({ name: 'bt-js formula 2', modifiedAt: expect.stringMatching(ISO) });
      const list = await mgmt.reactorFormulas.list({ name: 'bt-js formula 2' } as never);
      expect(list.data.map((x) => x.id)).toEqual([f.id]);
      await mgmt.reactorFormulas.delete(f.id);
      expect((await failure(mgmt.reactorFormulas.retrieve(f.id))).status).toBe(404);
    });

    describe('reactors', () => {
      let formulaId: string;
      let reactorId: string;
      beforeAll(async () => {
        formulaId = (
          await mgmt.reactorFormulas.create({ name: 'echo', type: 'private', code: ECHO, configuration: [{ name: 'greeting', type: 'string' }] } as never)
        ).id;
      });

      it('create (from a formula), retrieve, update, list, react; configuration keys kept as given', async () => {
        const r = await mgmt.reactors.create({ name: 'echo', configuration: { greeting: 'hi' }, formula: { id: formulaId } } as never);
        reactorId = r.id;
        expect(r).toMatchObject({ name: 'echo', tenantId: tenant.tenantId, configuration: { greeting: 'hi' }, formula: { id: formulaId } });
        expect(r.createdAt).toMatch(ISO);
        expect((await mgmt.reactors.retrieve(r.id)).name).toBe('echo');
        const updated = await mgmt.reactors.update(r.id, { name: 'echo 2', configuration: { greeting: 'hello' } } as never);
        expect(updated).toMatchObject({ name: 'echo 2', configuration: { greeting: 'hello' }, modifiedAt: expect.stringMatching(ISO) });
        const list = await mgmt.reactors.list({ name: 'echo 2' } as never);
        expect(list.data.map((x) => x.id)).toEqual([r.id]);
        expect(list.pagination).toMatchObject({ totalItems: 1, pageNumber: 1 });
        const result = await backend.reactors.react(r.id, { args: { x: 9 } });
        expect(result.raw).toEqual({ got: 9, cfg: 'hello' });
      });

      it('react with callbackUrl and timeoutMs (sent in camelCase) runs asynchronously', async () => {
        const bodies: string[] = [];
        const receiver = http.createServer((req, res) => {
          let b = '';
          req.on('data', (c) => (b += c));
          req.on('end', () => (bodies.push(b), res.writeHead(204).end()));
        });
        await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
        try {
          const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
          const accepted = (await backend.reactors.react(reactorId, { args: { x: 2 }, callbackUrl: url, timeoutMs: 15000 } as never)) as unknown as {
            id: string;
            status: string;
          };
          expect(accepted).toMatchObject({ id: expect.any(String), status: 'pending' });
          expect(JSON.parse(await eventually(async () => bodies[0]))).toMatchObject({ raw: { got: 2 } });
        } finally {
          await new Promise<void>((r) => receiver.close(() => r()));
        }
      });

      it('create from code, react', async () => {
        const r = await mgmt.reactors.create({ name: 'inline', code: ECHO, configuration: { greeting: 'yo' } } as never);
        expect(r).toMatchObject({ name: 'inline', code: ECHO, configuration: { greeting: 'yo' }, createdAt: expect.stringMatching(ISO) });
        expect((await backend.reactors.react(r.id, { args: { x: 5 } })).raw).toEqual({ got: 5, cfg: 'yo' });
        await mgmt.reactors.delete(r.id);
      });

      it('patch (merge patch of the name)', async () => {
        await mgmt.reactors.patch(reactorId, { name: 'echo 3' } as never);
        expect((await mgmt.reactors.retrieve(reactorId)).name).toBe('echo 3');
      });

      it('delete', async () => {
        await mgmt.reactors.delete(reactorId);
        expect((await failure(mgmt.reactors.retrieve(reactorId))).status).toBe(404);
      });
    });
  });
});
