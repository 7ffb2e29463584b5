/**
 * Issue 13 item 6: @basis-theory/node-sdk 5.7.0, unchanged, against Coffer: every operation the issue lists, with the
 * SDK's own parsing (camelCase fields, Date objects, its pagers, its error classes).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BasisTheory, BasisTheoryClient } from '@basis-theory/node-sdk';
import { VISA, api, createTenant, type TestTenant } from '@coffer/testing';
import { eventually, nodeSdk, parsedPagination } from './support';

jest.setTimeout(60_000);

const ECHO = 'module.exports = async function (req) { return { raw: { got: req.args.x, cfg: req.configuration.greeting } }; };';

describe('@basis-theory/node-sdk 5.7.0', () => {
  let tenant: TestTenant;
  let mgmt: BasisTheoryClient;
  let backend: BasisTheoryClient;
  let backendId: string;

  beforeAll(async () => {
    tenant = await createTenant('node-sdk');
    mgmt = nodeSdk(tenant.managementKey);
    const app = await mgmt.applications.create({
      name: 'Backend',
      type: 'private',
      permissions: ['token:create', 'token:read', 'token:update', 'token:delete', 'token:search', 'token:use'],
    });
    backendId = app.id as string;
    backend = nodeSdk(app.key as string);
  });

  describe('tokens', () => {
    it('create, get, update (merge patch), delete; dates parsed, fields camelCase', async () => {
      const created = await backend.tokens.create({
        type: 'card',
        data: { number: VISA, expiration_month: 12, expiration_year: 2030 },
        metadata: { customer: 'c-42' },
        searchIndexes: ['{{ data.number | last4 }}'],
        containers: ['/pci/high/'],
      });
      expect(created).toMatchObject({ type: 'card', tenantId: tenant.tenantId, containers: ['/pci/high/'], metadata: { customer: 'c-42' } });
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(created.fingerprint).toEqual(expect.any(String));
      expect(created.searchIndexes).toEqual(['{{ data.number | last4 }}']);

      const got = await backend.tokens.get(created.id as string);
      expect(got.data).toEqual({ number: VISA, expiration_month: 12, expiration_year: 2030 });
      expect(got.createdBy).toBe(backendId);

      const updated = await backend.tokens.update(created.id as string, { metadata: { customer: 'c-43' } });
      expect(updated.metadata).toEqual({ customer: 'c-43' });
      expect(updated.modifiedAt).toBeInstanceOf(Date);

      await backend.tokens.delete(created.id as string);
      await expect(backend.tokens.get(created.id as string)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
    });

    it('tokenize and detokenize', async () => {
      const tokenized = (await backend.tokens.tokenize({ card: { type: 'card_number', data: VISA }, plain: 'hello' })) as Record<string, any>;
      expect(tokenized['card']).toMatchObject({ type: 'card_number', data: 'XXXXXXXXXXXX4242' });
      expect(typeof tokenized['plain']).toBe('string');
      const detokenized = await backend.tokens.detokenize({ number: `{{ ${tokenized['card'].id} }}`, greeting: `{{ ${tokenized['plain']} }}` });
      expect(detokenized).toEqual({ number: VISA, greeting: 'hello' });
    });

    it('errors arrive as the SDK error classes, with the problem body', async () => {
      const err = await backend.tokens.create({ type: 'card', data: { number: '4242424242424241' } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BasisTheory.BadRequestError);
      expect((err as BasisTheory.BadRequestError).statusCode).toBe(400);
      expect(((err as BasisTheory.BadRequestError).body as { errors: Record<string, string[]> }).errors).toHaveProperty(['data.number']);
      await expect(nodeSdk('key_nope').tokens.get('x')).rejects.toBeInstanceOf(BasisTheory.UnauthorizedError);
      await expect(mgmt.tokens.get('x')).rejects.toBeInstanceOf(BasisTheory.ForbiddenError);
    });

    it('the trace id the SDK sends (correlationId → BT-TRACE-ID) comes back under BT-TRACE-ID', async () => {
      const { rawResponse } = await backend.tokens.tokenize('traced', { correlationId: 'node-sdk-trace-1' }).withRawResponse();
      expect(rawResponse.headers.get('bt-trace-id')).toBe('node-sdk-trace-1');
    });

    describe('v2 list and search (cursor paging)', () => {
      beforeAll(async () => {
        for (let i = 0; i < 5; i++) await backend.tokens.create({ type: 'token', data: `v2-${i}`, metadata: { batch: 'v2-batch' } });
      });

      it('listV2 pages with the cursor through every token of a metadata filter', async () => {
        const page = await backend.tokens.listV2({ metadata: { batch: 'v2-batch' }, size: 2 });
        expect(page.data).toHaveLength(2);
        expect(parsedPagination(page)?.pageSize).toBe(2);
        expect(parsedPagination(page)?.next).toEqual(expect.any(String));
        const all: BasisTheory.Token[] = [];
        for await (const t of await backend.tokens.listV2({ metadata: { batch: 'v2-batch' }, size: 2 })) all.push(t);
        expect(all).toHaveLength(5);
        expect(new Set(all.map((t) => t.id)).size).toBe(5);
        expect(all.every((t) => t.createdAt instanceof Date && t.metadata?.['batch'] === 'v2-batch')).toBe(true);
      });

      it('searchV2 pages with the cursor', async () => {
        const all: BasisTheory.Token[] = [];
        for await (const t of await backend.tokens.searchV2({ query: 'metadata.batch:v2-batch', size: 2 })) all.push(t);
        expect(all).toHaveLength(5);
      });
    });
  });

  describe('sessions', () => {
    it('create with a public key, authorize with a private key, then use the session key', async () => {
      const web = await mgmt.applications.create({ name: 'Web', type: 'public', permissions: ['token:create'] });
      const session = await nodeSdk(web.key as string).sessions.create();
      expect(session.sessionKey).toEqual(expect.any(String));
      expect(session.expiresAt).toBeInstanceOf(Date);
      await backend.sessions.authorize({ nonce: session.nonce as string, permissions: ['token:read'] });
      const sessionClient = nodeSdk(session.sessionKey as string);
      const token = await backend.tokens.create({ type: 'token', data: 'for the session' });
      expect((await sessionClient.tokens.get(token.id as string)).id).toBe(token.id);
      await expect(sessionClient.tokens.create({ type: 'token', data: 'x' })).rejects.toBeInstanceOf(BasisTheory.ForbiddenError);
    });
  });

  describe('applications and keys', () => {
    it('CRUD, getByKey, list paging and the id/type filters', async () => {
      const created = await mgmt.applications.create({ name: 'Svc', type: 'private', permissions: ['token:read'] });
      expect(created.key).toMatch(/^key_/);
      expect(created.keys?.[0]).toMatchObject({ key: created.key, createdAt: expect.any(Date) });
      expect(created.createdAt).toBeInstanceOf(Date);
      const got = await mgmt.applications.get(created.id as string);
      expect(got).toMatchObject({ id: created.id, tenantId: tenant.tenantId, name: 'Svc', type: 'private', permissions: ['token:read'] });
      expect(got.key).toBeUndefined();
      const updated = await mgmt.applications.update(created.id as string, { name: 'Svc 2', permissions: ['token:read', 'token:search'] });
      expect(updated).toMatchObject({ name: 'Svc 2', permissions: ['token:read', 'token:search'] });
      expect(updated.modifiedAt).toBeInstanceOf(Date);

      const self = await nodeSdk(created.key as string).applications.getByKey();
      expect(self.id).toBe(created.id);

      const firstPage = await mgmt.applications.list({ size: 2 });
      expect(firstPage.data).toHaveLength(2);
      expect(parsedPagination(firstPage)).toMatchObject({ pageNumber: 1, pageSize: 2, totalItems: expect.any(Number), totalPages: expect.any(Number) });
      const seen: string[] = [];
      for await (const app of await mgmt.applications.list({ size: 2 })) seen.push(app.id as string);
      expect(seen.length).toBe(parsedPagination(firstPage)?.totalItems);
      expect(new Set(seen).size).toBe(seen.length);

      const filtered = await mgmt.applications.list({ id: [created.id as string, backendId], type: 'private' });
      expect(filtered.data.map((a) => a.id).sort()).toEqual([created.id, backendId].sort());
      const publics = await mgmt.applications.list({ type: 'public', size: 100 });
      expect(publics.data.every((a) => a.type === 'public')).toBe(true);

      await mgmt.applications.delete(created.id as string);
      await expect(mgmt.applications.get(created.id as string)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
    });

    it('applicationKeys: create, list, get, delete (revoked at once)', async () => {
      const app = await mgmt.applications.create({ name: 'Keys', type: 'private', permissions: ['token:read'] });
      const extra = await mgmt.applicationKeys.create(app.id as string);
      expect(extra).toMatchObject({ id: expect.any(String), key: expect.stringMatching(/^key_/), createdAt: expect.any(Date) });
      const keys = await mgmt.applicationKeys.list(app.id as string);
      expect(keys.map((k) => k.id)).toEqual([app.keys?.[0]?.id, extra.id]);
      expect(keys.every((k) => k.key === undefined && k.createdAt instanceof Date)).toBe(true);
      const one = await mgmt.applicationKeys.get(app.id as string, extra.id as string);
      expect(one.id).toBe(extra.id);
      expect((await nodeSdk(extra.key as string).applications.getByKey()).id).toBe(app.id);
      await mgmt.applicationKeys.delete(app.id as string, extra.id as string);
      await expect(nodeSdk(extra.key as string).applications.getByKey()).rejects.toBeInstanceOf(BasisTheory.UnauthorizedError);
      await expect(mgmt.applicationKeys.get(app.id as string, extra.id as string)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
    });

    it('permissions.list, also by application type', async () => {
      const all = await mgmt.permissions.list();
      expect(all).toContainEqual({ type: 'token:use', description: expect.any(String), applicationTypes: ['private'] });
      const pub = await mgmt.permissions.list({ applicationType: 'public' });
      expect(pub.map((p) => p.type).sort()).toEqual(['token-intent:create', 'token:create', 'token:update']);
    });
  });

  describe('tenant and logs', () => {
    it('tenants.self get and update with string settings', async () => {
      const t = await mgmt.tenants.self.get();
      expect(t).toMatchObject({ id: tenant.tenantId, createdAt: expect.any(Date) });
      const on = await mgmt.tenants.self.update({ name: 'node-sdk tenant', settings: { deduplicate_tokens: 'true' } });
      expect(on.name).toBe('node-sdk tenant');
      expect(String(on.settings?.['deduplicate_tokens'])).toBe('true');
      const off = await mgmt.tenants.self.update({ name: 'node-sdk tenant', settings: { deduplicate_tokens: 'false' } });
      expect(String(off.settings?.['deduplicate_tokens'])).toBe('false');
    });

    it('logs.list with filters and paging; logs.getEntityTypes', async () => {
      const token = await backend.tokens.create({ type: 'token', data: 'audited' });
      await backend.tokens.get(token.id as string);
      const page = await mgmt.logs.list({ entityType: 'token', entityId: token.id as string, startDate: new Date(Date.now() - 60_000) });
      expect(page.data.map((l) => l.operation).sort()).toEqual(['create', 'read']);
      expect(page.data[0]).toMatchObject({ actorId: backendId, actorType: 'application', entityType: 'token', entityId: token.id, tenantId: tenant.tenantId });
      expect(page.data[0].message).toMatch(/^Token (created|read)$/);
      expect(page.data[0].createdAt).toBeInstanceOf(Date);
      const types = await mgmt.logs.getEntityTypes();
      expect(types).toContainEqual({ displayName: 'Token', value: 'token' });
    });
  });

  describe('reactors', () => {
    let reactorId: string;
    beforeAll(async () => {
      const formula = await api('POST', '/reactor-formulas', {
        key: tenant.managementKey,
        body: { name: 'echo', type: 'private', code: ECHO, configuration: [{ name: 'greeting', type: 'string' }] },
      });
      const reactor = await api('POST', '/reactors', {
        key: tenant.managementKey,
        body: { name: 'echo reactor', configuration: { greeting: 'hi' }, formula: { id: formula.body.id } },
      });
      reactorId = reactor.body.id;
    });

    it('get, list (paged), react', async () => {
      const got = await mgmt.reactors.get(reactorId);
      expect(got).toMatchObject({ id: reactorId, name: 'echo reactor', tenantId: tenant.tenantId, configuration: { greeting: 'hi' } });
      expect(got.createdAt).toBeInstanceOf(Date);
      expect(got.formula?.name).toBe('echo');
      const list = await mgmt.reactors.list({ name: 'echo', size: 10 });
      expect(list.data.map((r) => r.id)).toContain(reactorId);
      expect(parsedPagination(list)).toMatchObject({ pageNumber: 1, pageSize: 10 });
      // (reactors.update refuses, inside the SDK, to send a body without `code`: it is tested with code reactors below)
      await api('PUT', `/reactors/${reactorId}`, { key: tenant.managementKey, body: { name: 'echo reactor', configuration: { greeting: 'hello' } } });
      const result = await backend.reactors.react(reactorId, { args: { x: 7 } });
      expect(result.raw).toEqual({ got: 7, cfg: 'hello' });
    });

    it('react with callback_url answers 202 and delivers the result', async () => {
      const bodies: string[] = [];
      const receiver = http.createServer((req, res) => {
        let b = '';
        req.on('data', (c) => (b += c));
        req.on('end', () => (bodies.push(b), res.writeHead(204).end()));
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
      try {
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
        const accepted = (await backend.reactors.react(reactorId, { args: { x: 1 }, callback_url: url })) as unknown as { id: string; status: string };
        expect(accepted.status).toBe('pending');
        const body = await eventually(async () => bodies[0]);
        expect(JSON.parse(body)).toMatchObject({ raw: { got: 1 } });
      } finally {
        await new Promise<void>((r) => receiver.close(() => r()));
      }
    });

    describe('reactors from code, patch, reactAsync and results', () => {
      it('create with inline code, update with code, patch, react, reactAsync + results', async () => {
        const created = await mgmt.reactors.create({ name: 'inline', code: ECHO, configuration: { greeting: 'yo' } });
        expect(created).toMatchObject({ name: 'inline', code: ECHO, configuration: { greeting: 'yo' } });
        expect(created.createdAt).toBeInstanceOf(Date);
        expect((await backend.reactors.react(created.id as string, { args: { x: 3 } })).raw).toEqual({ got: 3, cfg: 'yo' });
        const replaced = await mgmt.reactors.update(created.id as string, {
          name: 'inline 2',
          code: ECHO.replace('got', 'value'),
          configuration: { greeting: 'hey' },
        });
        expect(replaced.name).toBe('inline 2');
        expect((await backend.reactors.react(created.id as string, { args: { x: 4 } })).raw).toEqual({ value: 4, cfg: 'hey' });
        await mgmt.reactors.patch(created.id as string, { name: 'inline 3' });
        expect((await mgmt.reactors.get(created.id as string)).name).toBe('inline 3');
        const job = await backend.reactors.reactAsync(created.id as string, { args: { x: 5 } });
        expect(job.asyncReactorRequestId).toEqual(expect.any(String));
        const done = await eventually(async () => {
          const r = (await backend.reactors.results.get(created.id as string, job.asyncReactorRequestId as string)) as { status?: string };
          return r.status === 'pending' || r.status === 'running' ? undefined : r;
        });
        expect(done).toMatchObject({ status: 'completed' });
        await mgmt.reactors.delete(created.id as string);
        await expect(mgmt.reactors.get(created.id as string)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
      });
    });
  });
});
