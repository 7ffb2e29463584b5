import { Inject, type Type } from '@nestjs/common';
import { httpPayloadFrom, type OperationRow, type ReplyOf } from '@coffer/contracts';
import type { Command } from './command';
import { Operation } from './operation.decorator';

/**
 * The operations of a resource a service keeps (formulas, reactors, proxies, webhooks, applications, members,
 * invitations), each a plain function of what the command carries. A service implements those its rows name.
 */
export interface ResourceService {
  create?(body: unknown): unknown;
  list?(query: Record<string, unknown>): unknown;
  get?(id: string): unknown;
  update?(id: string, body: unknown): unknown;
  patch?(id: string, body: unknown): unknown;
  delete?(id: string): Promise<unknown>;
}

type Verb = keyof ResourceService;

/** The rows a resource handler serves, by the service method each calls. */
export type ResourceRows = { readonly [V in Verb]?: OperationRow<unknown, unknown> };

/** The verbs, in the order a handler's methods are defined. */
const VERBS: readonly Verb[] = ['create', 'list', 'get', 'update', 'patch', 'delete'];

/** What a delete answers on the bus (the gateway answers the route 204, without a body). */
const DELETED = { deleted: true } as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a service method's own parameter types are narrower
type Method = (...args: any[]) => unknown;
/** The reply a service method gives for a verb: what its promise holds (a delete answers DELETED); never without the method. */
type ServiceReply<S, V extends Verb> = V extends keyof S
  ? V extends 'delete'
    ? typeof DELETED
    : S[V] extends Method
      ? Awaited<ReturnType<S[V]>>
      : never
  : never;
/** `rows`, each allowed only when the service has its method and that method's reply is the row's reply type. */
type CheckedRows<S, Rows> = {
  readonly [V in Extract<keyof Rows, Verb>]: V extends Verb
    ? [ServiceReply<S, V>] extends [never]
      ? never
      : ServiceReply<S, V> extends ReplyOf<Rows[V]>
        ? Rows[V]
        : never
    : never;
};

interface Body {
  id?: unknown;
  body?: unknown;
  query?: Record<string, unknown>;
}

const idOf = (body: Body | undefined) => String(body?.id ?? '');

/**
 * What each verb does with its command: the id and body from `{id, body}` (the gateway's path parameter and body), the
 * list's query as the row's payload takes it (the query itself, or `{query}` beside path parameters).
 */
const CALLS: { readonly [V in Verb]: (service: Required<ResourceService>, body: Body | undefined, row: OperationRow<unknown, unknown>) => unknown } = {
  create: (s, body) => s.create(body),
  list: (s, body, row) => s.list((row.http && httpPayloadFrom(row.http) === 'query' ? (body as Record<string, unknown> | undefined) : body?.query) ?? {}),
  get: (s, body) => s.get(idOf(body)),
  update: (s, body) => s.update(idOf(body), body?.body),
  patch: (s, body) => s.patch(idOf(body), body?.body),
  delete: async (s, body) => {
    await s.delete(idOf(body));
    return DELETED;
  },
};

/**
 * A handler class serving the standard rows of a resource's node of OPS through `service`: of `OPS.reactor.proxies`,
 * the rows named create, list, get, update, patch and delete (its other rows are the subclass's). `create(cmd)` calls
 * `service.create(body)`, `get(cmd)` `service.get(id)`, and so on (CALLS), each method marked `@Operation(row)` as a
 * hand-written one would be. The compiler holds each row to its service method's reply type.
 *
 *   @Controller()
 *   export class ProxiesHandler extends ResourceHandler(ProxiesService, OPS.reactor.proxies) {
 *     @Operation(OPS.reactor.proxies.resolve) resolve(cmd) { … }
 *   }
 */
export function ResourceHandler<S extends ResourceService, Node extends object>(
  service: Type<S>,
  node: Node & CheckedRows<S, Node>,
): Type<{ readonly resource: S }> {
  class Resource {
    constructor(@Inject(service) readonly resource: S) {}
  }
  const cls = Resource;
  // named for the service, so that the start-up check's messages say whose handler it is (`FormulasResource.get`)
  Object.defineProperty(cls, 'name', { value: `${service.name.replace(/Service$/, '')}Resource` });
  const rows = node as ResourceRows;
  for (const verb of VERBS.filter((v) => rows[v])) {
    const row = rows[verb] as OperationRow<unknown, unknown>;
    const call = CALLS[verb];
    const handler = {
      [verb](this: { resource: Required<ResourceService> }, cmd: Command<Body | undefined>) {
        return call(this.resource, cmd.body, row);
      },
    }[verb];
    Object.defineProperty(cls.prototype, verb, { value: handler, writable: true, configurable: true, enumerable: false });
    Operation(row)(cls.prototype, verb, Object.getOwnPropertyDescriptor(cls.prototype, verb) as PropertyDescriptor);
  }
  return cls;
}
