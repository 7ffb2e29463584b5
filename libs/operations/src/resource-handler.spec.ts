import { Controller, Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { op } from '@coffer/contracts';
import { declaredOperations } from './operation.decorator';
import { ResourceHandler } from './resource-handler';
import type { Command } from './command';

class Body {}
type View = { id: string };
const rows = {
  create: op<Body, View>()({ subject: 'test.resource.create', payload: Body, access: 'principal' }),
  list: op<Body, View[]>()({
    subject: 'test.resource.list',
    payload: Body,
    access: 'principal',
    http: { method: 'GET', path: '/things', status: 200, summary: 's', description: 'd', reply: {}, payloadFrom: 'query' },
  }),
  nested: op<Body, View[]>()({
    subject: 'test.resource.nested',
    payload: Body,
    access: 'principal',
    http: { method: 'GET', path: '/owners/:id/things', status: 200, summary: 's', description: 'd', reply: {}, payloadFrom: 'params+query' },
  }),
  get: op<Body, View>()({ subject: 'test.resource.get', payload: Body, access: 'principal' }),
  update: op<Body, View>()({ subject: 'test.resource.update', payload: Body, access: 'principal' }),
  patch: op<Body, View>()({ subject: 'test.resource.patch', payload: Body, access: 'principal' }),
  delete: op<Body, { deleted: boolean }>()({ subject: 'test.resource.delete', payload: Body, access: 'principal' }),
};

@Injectable()
class ThingsService {
  readonly calls: unknown[][] = [];
  async create(body: unknown): Promise<View> {
    this.calls.push(['create', body]);
    return { id: 'new' };
  }
  async list(query: Record<string, unknown>): Promise<View[]> {
    this.calls.push(['list', query]);
    return [];
  }
  async get(id: string): Promise<View> {
    this.calls.push(['get', id]);
    return { id };
  }
  async update(id: string, body: unknown): Promise<View> {
    this.calls.push(['update', id, body]);
    return { id };
  }
  async patch(id: string, body: unknown): Promise<View> {
    this.calls.push(['patch', id, body]);
    return { id };
  }
  async delete(id: string): Promise<void> {
    this.calls.push(['delete', id]);
  }
}

@Controller()
class ThingsHandler extends ResourceHandler(ThingsService, {
  create: rows.create,
  list: rows.list,
  get: rows.get,
  update: rows.update,
  patch: rows.patch,
  delete: rows.delete,
  // a row of the node that is no standard verb: the subclass's to handle, not served here
  archive: op<Body, View>()({ subject: 'test.resource.archive', payload: Body, access: 'principal' }),
}) {}

@Injectable()
class Owners {
  async list(query: Record<string, unknown>): Promise<View[]> {
    return [{ id: String(query['page'] ?? 'none') }];
  }
}

@Controller()
class OwnedThingsHandler extends ResourceHandler(Owners, { list: rows.nested }) {}

type Handler = Record<string, (cmd: Command) => Promise<unknown>>;

describe("ResourceHandler: the standard rows of a resource's node, served through its service", () => {
  it('is built by Nest with the service injected, and calls it with what each command carries', async () => {
    const module = await Test.createTestingModule({ controllers: [ThingsHandler], providers: [ThingsService] }).compile();
    const handler = module.get(ThingsHandler) as unknown as Handler;
    const service = module.get(ThingsService);
    expect(await handler['create']({ body: { name: 'a' } })).toEqual({ id: 'new' });
    expect(await handler['list']({ body: { page: '2' } })).toEqual([]);
    expect(await handler['list']({ body: undefined })).toEqual([]);
    expect(await handler['get']({ body: { id: 'x' } })).toEqual({ id: 'x' });
    expect(await handler['update']({ body: { id: 'x', body: { name: 'b' } } })).toEqual({ id: 'x' });
    expect(await handler['patch']({ body: { id: 'x', body: { name: 'c' } } })).toEqual({ id: 'x' });
    // a delete answers {deleted: true} on the bus (the gateway answers 204)
    expect(await handler['delete']({ body: { id: 'x' } })).toEqual({ deleted: true });
    // an absent id is the empty string: the service's own lookup answers it (404), nothing throws here
    await handler['get']({ body: undefined });
    expect(service.calls).toEqual([
      ['create', { name: 'a' }],
      ['list', { page: '2' }],
      ['list', {}],
      ['get', 'x'],
      ['update', 'x', { name: 'b' }],
      ['patch', 'x', { name: 'c' }],
      ['delete', 'x'],
      ['get', ''],
    ]);
  });

  it("reads a list's query from {query} when the row's payload carries path parameters beside it", async () => {
    const module = await Test.createTestingModule({ controllers: [OwnedThingsHandler], providers: [Owners] }).compile();
    const handler = module.get(OwnedThingsHandler) as unknown as Handler;
    expect(await handler['list']({ body: { id: 'o', query: { page: '3' } } })).toEqual([{ id: '3' }]);
    expect(await handler['list']({ body: { id: 'o' } })).toEqual([{ id: 'none' }]);
  });

  it('marks each method with its row, as @Operation does, under a name that says whose it is', () => {
    const proto = Object.getPrototypeOf(ThingsHandler.prototype);
    for (const [verb, row] of Object.entries(rows).filter(([v]) => v !== 'nested'))
      expect(Reflect.getMetadata(PATTERN_METADATA, proto[verb])).toEqual([row.subject]);
    expect(declaredOperations().get(rows.get.subject)).toEqual(['ThingsResource.get']);
    expect(proto.archive).toBeUndefined();
    expect(declaredOperations().has('test.resource.archive')).toBe(false);
  });

  it("holds each row to its service method's reply (checked by the compiler: a wrong pairing does not build)", () => {
    // @ts-expect-error -- `get` replies a View, the list row a View[]
    ResourceHandler(ThingsService, { get: rows.list });
    // @ts-expect-error -- Owners has no `get`
    ResourceHandler(Owners, { get: rows.get });
    expect(true).toBe(true);
  });
});
