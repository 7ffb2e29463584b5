import { Body, Controller, Inject, Param, Query, Req, SetMetadata, type Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { httpPathParams, httpPayloadFrom, type HttpBinding, type HttpPayloadFrom, type OperationRow } from '@coffer/contracts';
import { RpcClient } from '@coffer/bus';
import { Route } from './route.decorator';
import { callContext, type GatewayRequest } from './gateway-request';

/** Set on a handler rowController wrote from its row (route.decorator.spec reads it). */
export const ROW_HANDLER_KEY = 'coffer:row-handler';

/** A route of a row controller whose handler is a method of its `handlers` class, not written from the row. */
export const HANDWRITTEN = 'handwritten';

/** The routes of a controller, in the order the API reference lists them: method name → its row, or HANDWRITTEN. */
export type RouteTable = Readonly<Record<string, OperationRow | typeof HANDWRITTEN>>;

/** What a row controller holds: the bus client. The hand-written routes of a row controller are methods of a subclass. */
export class RowRoutes {
  constructor(@Inject(RpcClient) readonly rpc: RpcClient) {}
}

interface RowControllerOptions {
  /** the API reference's tags of every route */
  tags: readonly string[];
  routes: RouteTable;
  /** the class of the HANDWRITTEN routes: `@Route(row)` methods for what a row cannot say (headers, streams, guards) */
  handlers?: Type<RowRoutes>;
}

/**
 * A controller (mounted at `@Controller()`) serving each route of `routes`: a row's route by a handler written from
 * the row (`@Route(row)`, the path parameters, the body or query as `payloadFrom` says, then `rpc.call(row, payload)`);
 * a HANDWRITTEN route by the method of that name of `handlers`. `name` is the class name: with the method names it
 * makes the operation ids of the API reference (`Applications_create`).
 */
export function rowController(name: string, { tags, routes, handlers = RowRoutes }: RowControllerOptions): Type<RowRoutes> {
  const cls = { [name]: class extends handlers {} }[name];
  const own = Object.getOwnPropertyNames(handlers.prototype).filter((m) => m !== 'constructor');
  const unlisted = own.filter((m) => routes[m] !== HANDWRITTEN);
  if (unlisted.length) throw new Error(`${name}: ${unlisted.join(', ')} of ${handlers.name} not listed as HANDWRITTEN`);
  for (const [method, route] of Object.entries(routes)) {
    if (route === HANDWRITTEN) {
      const descriptor = Object.getOwnPropertyDescriptor(handlers.prototype, method);
      if (!descriptor) throw new Error(`${name}.${method}: ${handlers.name} has no such method`);
      // the same function, as an own member of the controller so that the routes keep the table's order
      Object.defineProperty(cls.prototype, method, descriptor);
    } else {
      defineRowHandler(cls.prototype, method, route);
    }
  }
  Controller()(cls);
  ApiTags(...tags)(cls);
  return cls;
}

type Input = { kind: 'param'; name: string } | { kind: 'body'; type: unknown } | { kind: 'query'; type: unknown };

/** The handler's parameters after the request: the path parameters, then the body or the query, as the payload takes them. */
function inputsOf(row: OperationRow, http: HttpBinding): Input[] {
  const from = httpPayloadFrom(http);
  const params: Input[] = from.startsWith('params') ? httpPathParams(http).map((p) => ({ kind: 'param', name: p })) : [];
  if (from.endsWith('body')) {
    const single = typeof http.body === 'function' ? http.body : undefined;
    // the class the global pipe validates the body with (Object: not validated at the edge)
    return [...params, { kind: 'body', type: http.bodyClass ?? single ?? Object }];
  }
  if (from.endsWith('query')) {
    const payload = from === 'query' && typeof row.payload === 'function' ? row.payload : undefined;
    return [...params, { kind: 'query', type: http.queryClass ?? payload ?? Object }];
  }
  return params;
}

function payloadOf(http: HttpBinding, from: HttpPayloadFrom, inputs: Input[], values: unknown[]): unknown {
  if (from === 'body' || from === 'query') return values[0];
  const payload: Record<string, unknown> = {};
  inputs.forEach((input, i) => {
    if (input.kind === 'param') payload[http.paramsAs?.[input.name] ?? input.name] = values[i];
    else payload[input.kind === 'body' ? (http.bodyAs ?? 'body') : 'query'] = values[i];
  });
  return payload;
}

/**
 * `method(req, ...path parameters, body | query)` on `prototype`, decorated as a hand-written handler would be (the
 * parameter decorators, their design types for the validation pipe and the API reference, then `@Route(row)`).
 */
function defineRowHandler(prototype: RowRoutes, method: string, row: OperationRow): void {
  const http = row.http;
  if (!http) throw new Error(`${method}: ${row.subject} has no HTTP binding`);
  const inputs = inputsOf(row, http);
  // worked out once, when the route is made: the request path only maps its values
  const from = httpPayloadFrom(http);
  const handler = {
    async [method](this: RowRoutes, req: GatewayRequest, ...values: unknown[]): Promise<unknown> {
      const reply = await this.rpc.call(row, payloadOf(http, from, inputs, values), callContext(req));
      // a 204 answers no body, whatever the service replied
      return http.status === 204 ? undefined : reply;
    },
  }[method];
  Object.defineProperty(prototype, method, { value: handler, writable: true, configurable: true, enumerable: false });
  const types = [Object, ...inputs.map((input) => (input.kind === 'param' ? String : input.type))];
  Reflect.defineMetadata('design:paramtypes', types, prototype, method);
  // the parameter decorators, last first (as TypeScript applies them)
  const decorators: ParameterDecorator[] = [
    Req(),
    ...inputs.map((input) => (input.kind === 'param' ? Param(input.name) : input.kind === 'body' ? Body() : Query())),
  ];
  for (let i = decorators.length - 1; i >= 0; i--) decorators[i](prototype, method, i);
  const descriptor = Object.getOwnPropertyDescriptor(prototype, method) as PropertyDescriptor;
  const decorated = (SetMetadata(ROW_HANDLER_KEY, true) as MethodDecorator)(prototype, method, descriptor) ?? descriptor;
  Object.defineProperty(prototype, method, Route(row)(prototype, method, decorated) ?? decorated);
}
