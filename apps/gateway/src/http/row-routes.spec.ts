import { Get, Module, Param, Req } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { OPS, type OperationRow } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient, type CallContext } from '@coffer/bus';
import type { Logger } from '@coffer/observability';
import { ContractValidationPipe } from './contract-validation.pipe';
import { ProblemFilter } from './problem.filter';
import { HANDWRITTEN, RowRoutes, rowController } from './row-routes';
import type { GatewayRequest } from './gateway-request';

interface Call {
  subject: string;
  payload: unknown;
  ctx: CallContext;
}

/** The bus as the routes see it: every call recorded; the reply is `{replied: subject}`. */
class RecordingRpc {
  readonly calls: Call[] = [];
  async call(row: OperationRow, payload: unknown, ctx: CallContext): Promise<unknown> {
    this.calls.push({ subject: row.subject, payload, ctx });
    return { replied: row.subject };
  }
}

class Handwritten extends RowRoutes {
  @Get('handwritten/:id')
  @RequirePermission('application:read')
  echo(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call(OPS.session.applications.get, { id, handwritten: true }, { principal: req.principal, traceId: 't' });
  }
}

const Applications = rowController('ApplicationsController', {
  tags: ['applications'],
  handlers: Handwritten,
  routes: {
    create: OPS.session.applications.create,
    list: OPS.session.applications.list,
    echo: HANDWRITTEN,
    get: OPS.session.applications.get,
    update: OPS.session.applications.update,
    delete: OPS.session.applications.delete,
    getKey: OPS.session.applications.keys.get,
  },
});

const Others = rowController('OthersController', {
  tags: ['others'],
  routes: {
    tenant: OPS.session.tenants.get,
    tokens: OPS.token.tokens.list,
    deliveries: OPS.webhook.webhooks.deliveries,
    patchToken: OPS.token.tokens.update,
  },
});

describe('rowController: routes served from their rows', () => {
  const rpc = new RecordingRpc();
  let app: NestFastifyApplication;

  beforeAll(async () => {
    @Module({
      controllers: [Applications, Others],
      providers: [
        { provide: RpcClient, useValue: rpc },
        { provide: APP_PIPE, useClass: ContractValidationPipe },
      ],
    })
    class TestModule {}
    const moduleRef = await Test.createTestingModule({ imports: [TestModule] }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
    app.useGlobalFilters(new ProblemFilter({ error: () => undefined } as unknown as Logger));
    const fastify = app.getHttpAdapter().getInstance();
    fastify.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, fastify.getDefaultJsonParser('ignore', 'ignore'));
    await app.init();
    await fastify.ready();
  });
  afterAll(() => app.close());
  beforeEach(() => rpc.calls.splice(0));

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, contentType?: string) =>
    app.inject({ method, url, payload, ...(contentType ? { headers: { 'content-type': contentType } } : {}) });

  it('sends the validated body of a create, members the class does not declare dropped, and answers the row status', async () => {
    const res = await send('POST', '/applications', { name: 'app', type: 'private', permissions: ['token:read'], extra: 1 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ replied: OPS.session.applications.create.subject });
    expect(rpc.calls).toHaveLength(1);
    expect(rpc.calls[0].subject).toBe(OPS.session.applications.create.subject);
    expect({ ...(rpc.calls[0].payload as object) }).toEqual({ name: 'app', type: 'private', permissions: ['token:read'] });
  });

  it('answers a bad body with a 400 naming the field, and calls nothing', async () => {
    const res = await send('POST', '/applications', { name: '', type: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(['name', 'type']));
    expect(rpc.calls).toEqual([]);
  });

  it('sends the query as the payload of a list that says so', async () => {
    expect((await send('GET', '/applications?type=private&size=2')).statusCode).toBe(200);
    expect(rpc.calls.map((c) => c.payload)).toEqual([{ type: 'private', size: '2' }]);
  });

  it('sends the path parameters, renamed where the row says, and the body beside them', async () => {
    await send('GET', '/applications/a1');
    await send('PUT', '/applications/a1', { name: 'renamed', other: true });
    await send('GET', '/applications/a1/keys/k1');
    expect(rpc.calls.map((c) => [c.subject, { ...(c.payload as object) }])).toEqual([
      [OPS.session.applications.get.subject, { id: 'a1' }],
      [OPS.session.applications.update.subject, { id: 'a1', body: { name: 'renamed' } }],
      [OPS.session.applications.keys.get.subject, { applicationId: 'a1', keyId: 'k1' }],
    ]);
  });

  it('nests the query beside the path parameters where the row says so, and sends no query by default', async () => {
    await send('GET', '/webhooks/w1/deliveries?status=failed');
    await send('GET', '/tokens?type=card');
    await send('GET', '/tenants/self?internal=true');
    expect(rpc.calls.map((c) => c.payload)).toEqual([{ webhookId: 'w1', query: { status: 'failed' } }, { query: { type: 'card' } }, {}]);
  });

  it('takes only the media types the binding names, and sends the body under the member it names', async () => {
    const refused = await send('PATCH', '/tokens/t1', { metadata: { a: 'b' } });
    expect(refused.statusCode).toBe(415);
    expect(refused.json().detail).toBe('PATCH /tokens/{id} requires Content-Type: application/merge-patch+json');
    expect(rpc.calls).toEqual([]);
    const patched = await send('PATCH', '/tokens/t1', { metadata: { a: 'b' } }, 'application/merge-patch+json');
    expect(patched.statusCode).toBe(200);
    expect(rpc.calls.map((c) => [c.subject, { ...(c.payload as object) }])).toEqual([
      [OPS.token.tokens.update.subject, { id: 't1', patch: expect.objectContaining({ metadata: { a: 'b' } }) }],
    ]);
  });

  it('answers a 204 route with no body, whatever the service replied', async () => {
    const res = await send('DELETE', '/applications/a1');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(rpc.calls.map((c) => c.payload)).toEqual([{ id: 'a1' }]);
  });

  it('serves a hand-written route beside them, in the order of the table', async () => {
    const res = await send('GET', '/handwritten/h1');
    expect(res.statusCode).toBe(200);
    expect(rpc.calls.map((c) => c.payload)).toEqual([{ id: 'h1', handwritten: true }]);
    expect(Object.getOwnPropertyNames(Applications.prototype)).toEqual(['constructor', 'create', 'list', 'echo', 'get', 'update', 'delete', 'getKey']);
    expect(Applications.name).toBe('ApplicationsController');
  });

  it('refuses a table that leaves out a hand-written route or names one that does not exist', () => {
    expect(() => rowController('BadController', { tags: [], handlers: Handwritten, routes: { get: OPS.session.applications.get } })).toThrow(
      /echo of Handwritten not listed/,
    );
    expect(() => rowController('BadController', { tags: [], routes: { missing: HANDWRITTEN } })).toThrow(/has no such method/);
    expect(() => rowController('BadController', { tags: [], routes: { authenticate: OPS.session.authenticate } })).toThrow(/no HTTP binding/);
  });
});
