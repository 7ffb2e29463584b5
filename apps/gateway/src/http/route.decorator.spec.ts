import 'reflect-metadata';
import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { OPS, operationRows, type OperationRow } from '@coffer/contracts';
import { AUTHENTICATED_ONLY_KEY, PERMISSION_KEY } from '@coffer/auth';
import { AppModule } from '../app.module';
import { ROUTE_ROW_KEY, Route, gatewayAccess } from './route.decorator';
import { ROW_HANDLER_KEY } from './row-routes';

interface ServedRoute {
  controller: string;
  handler: string;
  method: string;
  path: string;
  status: number | undefined;
  access: readonly string[] | 'principal' | undefined;
  row: OperationRow | undefined;
  /** written by rowController from the row (row-routes.ts) rather than by hand */
  fromRow: boolean;
  source: string;
}

const join = (...parts: string[]) =>
  `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;

/** Every route of the gateway's controllers, read from the Nest route metadata (one per path of a handler). */
function servedRoutes(): ServedRoute[] {
  const controllers: Array<new (...args: never[]) => object> = Reflect.getMetadata('controllers', AppModule);
  const out: ServedRoute[] = [];
  for (const controller of controllers) {
    const bases = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const paths = [Reflect.getMetadata(PATH_METADATA, handler) ?? ''].flat() as string[];
      const permissions: string[] | undefined = Reflect.getMetadata(PERMISSION_KEY, handler);
      const access = Reflect.getMetadata(AUTHENTICATED_ONLY_KEY, handler) ? 'principal' : permissions;
      for (const base of bases)
        for (const path of paths)
          out.push({
            controller: controller.name,
            handler: name,
            method,
            path: join(base, path),
            status: Reflect.getMetadata(HTTP_CODE_METADATA, handler),
            access,
            row: Reflect.getMetadata(ROUTE_ROW_KEY, handler),
            fromRow: Reflect.getMetadata(ROW_HANDLER_KEY, handler) === true,
            source: handler.toString(),
          });
    }
  }
  return out;
}

/** `session.applications.create` for OPS.session.applications.create. */
function opsPaths(node: unknown, prefix: string[] = [], out = new Map<OperationRow, string>()): Map<OperationRow, string> {
  if (typeof node !== 'object' || node === null) return out;
  if (operationRows(node).length === 1 && operationRows(node)[0] === node) return out.set(node as OperationRow, prefix.join('.'));
  for (const [key, value] of Object.entries(node)) opsPaths(value, [...prefix, key], out);
  return out;
}

const routes = servedRoutes();
const bound = routes.filter((r) => r.row);
const rowPaths = opsPaths(OPS);

/** The routes the gateway answers itself, or that share one row without a binding (see their controllers). */
const PLAIN_ROUTES = [
  'POST /applications/:id/access-preview',
  'GET /permissions',
  'GET /logs/entity-types',
  'GET /roles',
  'GET /webhooks/event-types',
  'GET /ping',
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((m) => [`${m} /proxy`, `${m} /proxy/*`]),
];

describe('@Route: the gateway routes and the operation rows agree', () => {
  it('reads the routes of every controller', () => {
    expect(routes.length).toBeGreaterThan(70);
    expect(bound.length).toBeGreaterThan(60);
  });

  it('serves every route bound to a row as its binding says: method, path, status and permission', () => {
    const wrong = bound.flatMap((r) => {
      const http = r.row?.http;
      if (!r.row || !http) return [`${r.controller}.${r.handler}: bound to a row without http`];
      const expected = { method: http.method, path: join(http.path), status: http.status, access: gatewayAccess(r.row) };
      const actual = { method: r.method, path: r.path, status: r.status, access: r.access };
      return JSON.stringify(actual) === JSON.stringify(expected)
        ? []
        : [`${r.controller}.${r.handler}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`];
    });
    expect(wrong).toEqual([]);
  });

  it('calls the row a route is bound to', () => {
    // a handler written from its row calls that row (row-routes.ts); a hand-written one names it
    const handwritten = bound.filter((r) => !r.fromRow);
    const elsewhere = handwritten.filter((r) => !r.source.includes(`OPS.${rowPaths.get(r.row as OperationRow)},`)).map((r) => `${r.controller}.${r.handler}`);
    expect(elsewhere).toEqual([]);
    expect(handwritten.length).toBeLessThan(bound.length);
  });

  it('serves every row with an HTTP binding by exactly one route, and binds no row without one', () => {
    const withHttp = operationRows(OPS).filter((row) => row.http);
    expect(withHttp.length).toBeGreaterThan(60);
    const count = (row: OperationRow) => bound.filter((r) => r.row === row).length;
    expect(withHttp.filter((row) => count(row) !== 1).map((row) => `${row.subject}: ${count(row)} routes`)).toEqual([]);
  });

  it('gives no two routes the same method and path', () => {
    const keys = routes.map((r) => `${r.method} ${r.path.replace(/:[A-Za-z0-9_]+/g, ':')}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('leaves plain decorators only on the routes without a row of their own, each with a permission declared', () => {
    const plain = routes.filter((r) => !r.row);
    expect(plain.map((r) => `${r.method} ${r.path}`).sort()).toEqual([...PLAIN_ROUTES].sort());
    expect(plain.filter((r) => r.access === undefined || r.access.length === 0).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('refuses a row without a binding, and a per-call access without the gateway’s', () => {
    expect(() => Route(OPS.session.authenticate)).toThrow(/no HTTP binding/);
    const { access: _gateway, ...http } = OPS.session.tenants.get.http as NonNullable<OperationRow['http']>;
    expect(() => Route({ ...OPS.session.tenants.get, http })).toThrow(/decided per call/);
  });
});
