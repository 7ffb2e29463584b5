import { Delete, Get, HttpCode, Patch, Post, Put, SetMetadata, applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
  type ApiBodyOptions,
  type ApiResponseOptions,
} from '@nestjs/swagger';
import type { Access, HttpBinding, HttpMethod, HttpParamDoc, OperationRow, PayloadClass } from '@coffer/contracts';
import { AuthenticatedOnly, RequirePermission } from '@coffer/auth';
import { ApiProblems } from '../docs/api-problems.decorator';
import { AcceptsContentType } from './content-type.guard';

/** The row a route serves (`@Route(row)`), for the check that the controllers and the rows agree (route.decorator.spec). */
export const ROUTE_ROW_KEY = 'coffer:route-row';

const ROUTE: Record<HttpMethod, (path: string) => MethodDecorator> = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete };

/** What the gateway checks before the call: the binding's own access when the row's is decided per call. */
export function gatewayAccess(row: OperationRow): Access {
  const access = row.http?.access ?? row.access;
  if (typeof access === 'function') throw new Error(`${row.subject}: the row's access is decided per call; its http binding must name the gateway's`);
  return access;
}

function permission(row: OperationRow): MethodDecorator {
  const access = gatewayAccess(row);
  if (access === 'principal') return AuthenticatedOnly();
  // 'none' has no place on a route: every route of the gateway authenticates (deny by default)
  if (access === 'none' || access.length === 0) throw new Error(`${row.subject}: a route needs a principal`);
  return RequirePermission(...access);
}

/** `PATCH /tokens/{id} requires Content-Type: application/merge-patch+json`; with several: `takes …: a (or b)` */
function contentTypeRule(http: HttpBinding, types: readonly string[]): MethodDecorator {
  const path = http.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const [first, ...others] = types;
  const message = others.length
    ? `${http.method} ${path} takes Content-Type: ${first} (or ${others.join(', ')})`
    : `${http.method} ${path} requires Content-Type: ${first}`;
  return AcceptsContentType(types, message);
}

function bodyOptions(body: NonNullable<HttpBinding['body']>): ApiBodyOptions {
  if (typeof body === 'function') return { type: body };
  if (Array.isArray(body)) return { schema: { oneOf: body.map((type) => ({ $ref: getSchemaPath(type) })) } };
  return body as ApiBodyOptions;
}

/**
 * The route of a row (libs/contracts OPS, `http`): its method and path, success status, the permission the gateway
 * checks (a permission list → RequirePermission, `principal` → AuthenticatedOnly), the media types its body may
 * come in (`consumes`: any other is a 415), and its API reference (summary,
 * description, tags, path and query parameters, body, success reply, error statuses). The handler is left with mapping
 * the HTTP inputs to the bus payload and the call: rowController (row-routes.ts) writes it from the row's
 * `payloadFrom`; a controller method with `@Route(row)` is for the routes that do more. The controller is mounted at `@Controller()`: the row's path is the whole
 * path.
 */
export function Route(row: OperationRow): MethodDecorator {
  const http = row.http;
  if (!http) throw new Error(`${row.subject} has no HTTP binding`);
  // written as they would be stacked on the method, top to bottom (the reference lists parameters in that order)
  const stacked: MethodDecorator[] = [
    ROUTE[http.method](http.path),
    HttpCode(http.status),
    permission(row),
    SetMetadata(ROUTE_ROW_KEY, row),
    ...(http.consumes ? [contentTypeRule(http, http.consumes)] : []),
    ...(http.tags ? [ApiTags(...http.tags)] : []),
    ApiOperation({ summary: http.summary, description: http.description }),
    ...(http.params ?? []).map((p: HttpParamDoc) => ApiParam(p as Parameters<typeof ApiParam>[0])),
    ...(http.query ?? []).map((q: HttpParamDoc) => ApiQuery(q as Parameters<typeof ApiQuery>[0])),
    // the shapes of a `oneOf` body are referenced, so they are registered with the document
    ...(Array.isArray(http.body) ? [ApiExtraModels(...(http.body as PayloadClass[]))] : []),
    ...(http.consumes ? [ApiConsumes(...http.consumes)] : []),
    ...(http.body ? [ApiBody(bodyOptions(http.body))] : []),
    ApiResponse({ status: http.status, ...http.reply } as ApiResponseOptions),
    ...(http.problems ? [ApiProblems(http.problems)] : []),
  ];
  return applyDecorators(...stacked.reverse());
}
