import type { Principal } from '../auth/principal';
import type { JsonLimitOptions } from '../json-limits';

/** A payload contract class (class-validator rules, optional ContractStatics). */
export type PayloadClass = new () => object;

/**
 * Who may call an operation: `none` (no principal needed: readiness pings, authentication itself), `principal` (any
 * authenticated principal of the tenant), or the permissions of which the principal needs any one.
 */
export type Access = 'none' | 'principal' | readonly string[];

/**
 * How a write is made idempotent under SVC-IDEMPOTENCY-KEY (docs/api-reference.md): `transaction` records the key in
 * the write's own transaction (which holds the key meanwhile: a repeat racing the first is a 409); `exclusive` claims
 * the key first, for work with effects outside the database that cannot be rolled back (a synchronous react); `none`:
 * not a write.
 */
export type IdempotencyMode = 'none' | 'transaction' | 'exclusive';

/** Where the JSON limits are checked before any handler code walks the body. */
export interface JsonLimitRule {
  /** the member of the body to check (the whole body when absent) */
  field?: string;
  options?: JsonLimitOptions;
  /** a member of the body naming the checked value in errors (detokenize's `path`) */
  rootFrom?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A path or query parameter as the API reference documents it (the options of @nestjs/swagger's ApiParam/ApiQuery). */
export interface HttpParamDoc {
  readonly name: string;
  readonly description?: string;
  readonly format?: string;
  readonly example?: string;
  readonly required?: boolean;
  readonly type?: unknown;
  readonly enum?: readonly string[];
  readonly schema?: object;
}

/** A JSON body or reply given as an OpenAPI schema rather than a contract class (any JSON: tokenize, detokenize). */
export interface HttpSchemaDoc {
  readonly schema: object;
  readonly example?: unknown;
  readonly examples?: Record<string, { summary: string; value: unknown }>;
}

/**
 * Where the gateway takes a route's bus payload from, for the rows it serves from the row alone (apps/gateway
 * `rowController`). The path parameters are those of `path` (`:id` → `id`, renamed by `paramsAs`):
 * - `params`: the path parameters, `{id}` (`{}` for a path without any). The default without a body.
 * - `body`: the body itself. The default with a body and no path parameter.
 * - `params+body`: `{...path parameters, body}` (the member renamed by `bodyAs`). The default with a body and path
 *   parameters.
 * - `query`: the query itself (a list whose payload class is its query class).
 * - `params+query`: `{...path parameters, query}` (`{query}` for a path without any).
 * The query is never sent unless the binding says so: a default passes no member the caller chose the name of.
 */
export type HttpPayloadFrom = 'params' | 'body' | 'params+body' | 'query' | 'params+query';

/**
 * How the gateway serves a row over HTTP (apps/gateway `@Route(row)`): the route, its success status, the permission
 * it checks before the call, and the API reference of the route. A row without one is not an HTTP route of its own:
 * service-to-service and console operations, and `proxy.invoke`, which ten routes (five methods on /proxy and /proxy/**)
 * reach through one handler and keep their plain decorators. Routes the gateway answers itself (GET /permissions,
 * /roles, /logs/entity-types, /webhooks/event-types, /ping, the access preview) have no row at all.
 */
export interface HttpBinding {
  readonly method: HttpMethod;
  /** the path as the gateway mounts it, in Nest's syntax (`/applications/:id`) */
  readonly path: string;
  /** the success status (Nest's HttpCode; also the status of `reply` in the reference) */
  readonly status: number;
  readonly summary: string;
  readonly description: string;
  /**
   * The HTTP body, when it has one. It is often not the bus payload: the gateway maps it (PUT /applications/{id} takes
   * an UpdateApplicationRequest and sends `{id, body}`, an IdBodyMessage). Several classes: one of them (`oneOf`).
   */
  readonly body?: PayloadClass | readonly PayloadClass[] | HttpSchemaDoc;
  /** the success reply in the reference: its class (`[Class]`: an array of them) or schema, and its description */
  readonly reply:
    | { readonly type?: PayloadClass | readonly [PayloadClass]; readonly description?: string }
    | (HttpSchemaDoc & { readonly description?: string });
  readonly params?: readonly HttpParamDoc[];
  readonly query?: readonly HttpParamDoc[];
  /** the error statuses the route answers beyond the shared ones: status → when */
  readonly problems?: Readonly<Record<number, string>>;
  /**
   * The gateway's check when the row's `access` is decided by the body or the principal (a function): what any such
   * call needs at least. The service applies the row's own access after it.
   */
  readonly access?: Access;
  /** tags of the API reference besides those of the route's controller */
  readonly tags?: readonly string[];
  /** where the bus payload comes from (HttpPayloadFrom); derived by httpPayloadFrom when absent */
  readonly payloadFrom?: HttpPayloadFrom;
  /** the payload member a path parameter fills when it is not the parameter's name: `{ id: 'applicationId' }` */
  readonly paramsAs?: Readonly<Record<string, string>>;
  /** the payload member the body fills beside the path parameters (`params+body`) when it is not `body` */
  readonly bodyAs?: string;
  /**
   * The media types the body may come in when JSON alone is not it (a merge patch): the reference lists them, and the
   * gateway answers any other with a 415 before the body is read.
   */
  readonly consumes?: readonly string[];
  /**
   * The contract class the gateway validates the body with when `body` is not one class (several shapes: the class
   * that picks the shape; a schema: a class taking the whole document). Default: `body` when it is a class.
   */
  readonly bodyClass?: PayloadClass;
  /**
   * The class the query is read as: its documented members are the route's query parameters in the reference (the
   * gateway passes the query on unvalidated; the service validates it). Default: with `payloadFrom: 'query'`, the
   * row's `payload` when it is one class; otherwise none.
   */
  readonly queryClass?: PayloadClass;
}

/** The path parameters of a route, in order: `/applications/:id/keys/:keyId` → `['id', 'keyId']`. */
export function httpPathParams(http: Pick<HttpBinding, 'path'>): string[] {
  return [...http.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
}

/** The binding's `payloadFrom`, or its default: the body when there is one (with the path parameters), else the path parameters. */
export function httpPayloadFrom(http: Pick<HttpBinding, 'path' | 'body' | 'payloadFrom'>): HttpPayloadFrom {
  if (http.payloadFrom) return http.payloadFrom;
  if (http.body) return httpPathParams(http).length > 0 ? 'params+body' : 'body';
  return 'params';
}

/**
 * One NATS operation (docs/nats.md, "Operations"): its subject, payload contract, who may call it, the limits and
 * validation its body gets before the handler runs, and its idempotency. `B` and `R` are the body and reply types,
 * carried for callers (`rpc.call(OPS.token.tokens.create, body, ctx)`) and never present at run time.
 */
export interface OperationRow<B = unknown, R = unknown> {
  readonly subject: string;
  /** the payload's contract class (two for POST /reactors: a formula reactor or a code reactor) */
  readonly payload: PayloadClass | readonly PayloadClass[];
  /** fixed, or decided by the body (an `internal` read) or the principal (management vs. application) */
  readonly access: Access | ((body: unknown, principal: Principal) => Access);
  /**
   * The dispatcher validates the body with `payload` (validateContract, no whitelisting: the edge already dropped
   * unknown members of HTTP bodies, and a service refuses rather than rewrites what reaches it from elsewhere).
   * False where the owning service still validates the body itself, with its own field paths and messages.
   */
  readonly validate: boolean;
  readonly jsonLimits?: JsonLimitRule;
  readonly idempotency: IdempotencyMode | ((body: unknown) => IdempotencyMode);
  /** `exclusive`: how long a claim holds the key before a repeat may take it over */
  readonly leaseMs?: number;
  /** service-to-service only: never called by the gateway, never reachable from a reactor's `svc` */
  readonly internal: boolean;
  /** the HTTP route the gateway serves the row at, when it has one of its own */
  readonly http?: HttpBinding;
  /** phantom: the body and reply types */
  readonly types?: { body: B; reply: R };
}

export type BodyOf<O> = O extends OperationRow<infer B, unknown> ? B : never;
export type ReplyOf<O> = O extends OperationRow<unknown, infer R> ? R : never;

/** The fields a row may leave out: what most rows are (not validated by the dispatcher, not a write, callable by the gateway). */
export const OPERATION_DEFAULTS = { validate: false, idempotency: 'none', internal: false } as const satisfies Pick<
  OperationRow,
  'validate' | 'idempotency' | 'internal'
>;

/** What a row spells out: everything but the phantom types, the defaulted fields optional. */
export type OperationRowInput<B, R> = Omit<OperationRow<B, R>, 'types' | keyof typeof OPERATION_DEFAULTS> &
  Partial<Pick<OperationRow<B, R>, keyof typeof OPERATION_DEFAULTS>>;

/**
 * A row with its types: `op<CreateTokenRequest, TokenView>()({...})`. `validate`, `idempotency` and `internal` take
 * OPERATION_DEFAULTS when absent, so readers always find them.
 */
export function op<B, R = unknown>() {
  return (row: OperationRowInput<B, R>): OperationRow<B, R> => ({ ...OPERATION_DEFAULTS, ...row });
}

/** Every row under a node of the table (depth first). */
export function operationRows(node: unknown): OperationRow[] {
  if (typeof node !== 'object' || node === null) return [];
  if (typeof (node as OperationRow).subject === 'string' && 'idempotency' in node) return [node as OperationRow];
  return Object.values(node).flatMap(operationRows);
}
