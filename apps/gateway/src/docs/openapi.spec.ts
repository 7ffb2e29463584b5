import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ROUTE_ARGS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { AppModule } from '../app.module';
import { HeaderNames } from '../http/coffer-headers';
import { buildOpenApiDocument, setupOpenApi } from './openapi';
import { gatewayWithoutServices, type RegisteredRoute } from './openapi-app';

const ROOT = path.resolve(__dirname, '../../../..');
const SNAPSHOT = path.join(ROOT, 'docs/openapi.json');
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
/** The routes of the reference itself (Swagger UI and its assets) are not operations of the API. */
const isDocsRoute = (r: RegisteredRoute) => r.path === '/docs' || r.path.startsWith('/docs/') || r.path.startsWith('/docs-');

type Media = { schema?: object; example?: unknown };
type Response = { $ref?: string; content?: Record<string, Media> };
type Operation = { requestBody?: { content: Record<string, Media> }; responses: Record<string, Response> };

/** A response, or the shared one it references (`#/components/responses/...`). */
function resolveResponse(doc: OpenAPIObject, response: Response | undefined): Response | undefined {
  if (!response?.$ref) return response;
  return (doc.components?.responses as Record<string, Response> | undefined)?.[response.$ref.replace('#/components/responses/', '')];
}

/** The routes whose handler takes a body (`@Body()`), read from the controllers' route metadata. */
function routesWithBody(): Set<string> {
  const out = new Set<string>();
  const controllers: Array<new (...args: never[]) => unknown> = Reflect.getMetadata('controllers', AppModule);
  for (const controller of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = controller.prototype[name];
      if (name === 'constructor' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {};
      if (!Object.keys(args).some((k) => k.split(':')[0] === String(RouteParamtypes.BODY))) continue;
      const route = `/${[base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].filter((p) => p && p !== '/').join('/')}`.replace(
        /:([A-Za-z0-9_]+)/g,
        '{$1}',
      );
      out.add(`${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler)].toLowerCase()} ${route}`);
    }
  }
  return out;
}

describe('the API reference (OpenAPI)', () => {
  let app: NestFastifyApplication;
  let routes: RegisteredRoute[];
  let served: OpenAPIObject;
  const previousAliases = process.env['HEADER_ALIAS_PREFIXES'];

  beforeAll(async () => {
    // the snapshot describes the default header names; aliases only add a sentence
    delete process.env['HEADER_ALIAS_PREFIXES'];
    ({ app, routes } = await gatewayWithoutServices());
    setupOpenApi(app, { ui: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    served = JSON.parse(res.body);
    if (process.env['UPDATE_OPENAPI_SNAPSHOT'] === '1') writeFileSync(SNAPSHOT, `${JSON.stringify(served, null, 2)}\n`);
  }, 60_000);

  afterAll(async () => {
    if (previousAliases !== undefined) process.env['HEADER_ALIAS_PREFIXES'] = previousAliases;
    await app?.close();
  });

  it('is what the committed snapshot docs/openapi.json says (run `npm run openapi` after changing a contract)', () => {
    const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    expect(served).toEqual(snapshot);
  });

  it('is a valid OpenAPI document (@seriousme/openapi-schema-validator)', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'coffer-openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(served));
    const out = execFileSync(process.execPath, [path.join(ROOT, 'tools/openapi/validate.mjs'), file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toMatch(/^valid OpenAPI 3\./);
  });

  it('describes every route the gateway registers, each with its body, success and error responses', () => {
    const api = routes.filter((r) => METHODS.has(r.method) && !isDocsRoute(r));
    expect(api.length).toBeGreaterThan(35);
    const withBody = routesWithBody();
    const missing: string[] = [];
    for (const route of api) {
      const key = `${route.method} ${route.path}`;
      const op = (served.paths[route.path] as Record<string, Operation> | undefined)?.[route.method];
      if (!op) {
        missing.push(`${key}: not described`);
        continue;
      }
      const statuses = Object.keys(op.responses);
      const success = statuses.filter((s) => s.startsWith('2'));
      if (!success.length) missing.push(`${key}: no success response`);
      for (const s of success) {
        if (s === '204' || (key === 'post /sessions/authorize' && s === '200')) continue;
        if (!Object.values(op.responses[s].content ?? {}).some((m) => m.schema)) missing.push(`${key}: ${s} has no schema`);
      }
      if (withBody.has(key) && !Object.values(op.requestBody?.content ?? {}).some((m) => m.schema)) missing.push(`${key}: no request schema`);
      const isApi = !['/healthz', '/readyz'].includes(route.path);
      if (isApi) {
        for (const s of ['400', '401', '403', '429', '503']) {
          const problem = resolveResponse(served, op.responses[s])?.content?.['application/problem+json']?.schema as { $ref?: string } | undefined;
          if (problem?.$ref !== '#/components/schemas/ProblemDocument') missing.push(`${key}: no ${s} problem response`);
        }
      }
    }
    expect(missing).toEqual([]);
    // and nothing is described that the gateway does not serve
    const served_ = new Set(api.map((r) => `${r.method} ${r.path}`));
    const described = Object.entries(served.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.has(m))
        .map((m) => `${m} ${p}`),
    );
    expect(described.filter((d) => !served_.has(d))).toEqual([]);
  });

  it('has an example for every request body and success response, and each one matches its schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ components: served.components }, 'doc');
    const refToDoc = (schema: object) => JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'));
    const problems: string[] = [];
    for (const [p, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
        if (!METHODS.has(method)) continue;
        const media = [
          ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => [`request ${type}`, m] as const),
          ...Object.entries(op.responses).flatMap(([s, r]) =>
            Object.entries(resolveResponse(served, r)?.content ?? {}).map(([type, m]) => [`${s} ${type}`, m] as const),
          ),
        ];
        for (const [where, m] of media) {
          const examples =
            m.example !== undefined ? [m.example] : Object.values((m as { examples?: Record<string, { value: unknown }> }).examples ?? {}).map((e) => e.value);
          if (!examples.length) problems.push(`${method} ${p} ${where}: no example`);
          if (!m.schema || m.schema === undefined) continue;
          const validate = ajv.compile(refToDoc(m.schema));
          for (const example of examples) if (!validate(example)) problems.push(`${method} ${p} ${where}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has up-to-date TypeScript types for the e2e client (openapi-typescript of docs/openapi.json)', () => {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'tools/openapi/types.mjs'), 'check'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toContain('up to date');
  });

  it('describes the API key header and its aliases', () => {
    const scheme = served.components?.securitySchemes?.['api-key'] as { name: string; in: string; description: string };
    expect(scheme).toMatchObject({ type: 'apiKey', name: 'SVC-API-KEY', in: 'header' });
    expect(scheme.description).toContain('HEADER_ALIAS_PREFIXES');
    expect(served.security).toEqual([{ 'api-key': [] }]);
    const withAlias = buildOpenApiDocument(app, new HeaderNames('BT'));
    expect((withAlias.components?.securitySchemes?.['api-key'] as { description: string }).description).toContain('BT-API-KEY');
  });
});
