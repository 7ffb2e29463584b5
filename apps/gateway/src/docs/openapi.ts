import type { INestApplication } from '@nestjs/common';
import { ApiProperty, DocumentBuilder, SwaggerModule, getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { ProblemDocument, applyPropertyDocs } from '@coffer/contracts';
import { HeaderNames } from '../http/coffer-headers';
import { problemResponse } from './api-problems.decorator';
import { exampleOf } from './schema-example';

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const WRITES = new Set(['post', 'put', 'patch']);

/**
 * Statuses every operation may answer besides its own (docs/api-reference.md "General"): authentication and the rate limit
 * run before every route, the key is resolved by session-service over the bus, and the query is checked everywhere.
 */
const SHARED_PROBLEMS: Record<number, string> = {
  400: 'The request is invalid: `errors` names every offending field (body, query parameter) with its messages',
  401: 'The API key is missing, unknown or expired',
  403: 'The API key does not grant access to this operation',
  429: 'Rate limited: retry after the seconds of the Retry-After header',
  503: 'A backing service is unavailable',
  504: 'A backing service did not answer in time',
};
const WRITE_PROBLEMS: Record<number, string> = {
  409: 'A request with the same idempotency key is still in flight',
  413: 'The request body exceeds the 1 MiB limit',
  415: 'The Content-Type of the request is not supported (JSON only)',
  422: 'The idempotency key was already used for a different request',
};
const PATH_PROBLEMS: Record<number, string> = {
  404: 'No such resource in the tenant of the key (ids of other tenants are unknown too)',
  414: 'A path parameter exceeds 4096 characters (as sent, percent-encoded)',
};

function describeAuthentication(names: HeaderNames): string {
  const aliases = names.apiKey.slice(1).map((n) => n.toUpperCase());
  return [
    'The API key of an application, or the session key of an authorized session. Header names are case-insensitive.',
    aliases.length
      ? `Also accepted under the alias ${aliases.join(', ')} (HEADER_ALIAS_PREFIXES).`
      : 'With HEADER_ALIAS_PREFIXES (e.g. `BT`), `<P>-API-KEY` is accepted as an alias (and `<P>-IDEMPOTENCY-KEY`, `<P>-TRACE-ID`), for clients built for the mirrored service.',
  ].join(' ');
}

/**
 * The probes answered by Fastify routes outside Nest: no key, no problem documents. (/metrics is not on this port: it is
 * served with the probes on HEALTH_PORT, for the cluster only.)
 */
function operationalPaths(): OpenAPIObject['paths'] {
  const plain = (summary: string, description: string, schema: object, statuses: Record<number, [string, unknown]>) => ({
    get: {
      tags: ['operations'],
      summary,
      description,
      operationId: `operations_${summary.replace(/\W+/g, '_').toLowerCase()}`,
      security: [],
      parameters: [],
      responses: Object.fromEntries(
        Object.entries(statuses).map(([status, [d, example]]) => [status, { description: d, content: { ['application/json']: { schema, example } } }]),
      ),
    },
  });
  const readiness = {
    type: 'object',
    required: ['status', 'checks'],
    properties: { status: { type: 'string', enum: ['ready', 'unavailable'] }, checks: { type: 'object', additionalProperties: true } },
  };
  return {
    '/healthz': plain(
      'Liveness',
      'The process is up.',
      { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
      { 200: ['alive', { status: 'ok' }] },
    ),
    '/readyz': plain('Readiness', 'NATS reachable and not shutting down.', readiness, {
      200: ['ready', { status: 'ready', checks: { nats: 'ok' } }],
      503: ['not ready (or shutting down)', { status: 'unavailable', checks: { nats: 'failing' } }],
    }),
  };
}

/** `#/components/responses/Problem<status>`: the shared error responses, written once and referenced. */
function sharedProblemResponses(): Record<string, ReturnType<typeof problemResponse>> {
  const all = { ...SHARED_PROBLEMS, ...WRITE_PROBLEMS, ...PATH_PROBLEMS };
  return Object.fromEntries(Object.entries(all).map(([status, description]) => [`Problem${status}`, problemResponse(Number(status), description)]));
}

function addShared(op: Operation, method: string, path: string, names: HeaderNames): void {
  const statuses = [
    ...Object.keys(SHARED_PROBLEMS),
    ...(WRITES.has(method) ? Object.keys(WRITE_PROBLEMS) : []),
    ...(path.includes('{') ? Object.keys(PATH_PROBLEMS) : []),
  ];
  for (const status of statuses) op.responses[status] ??= { $ref: `#/components/responses/Problem${status}` };
  op.responses = Object.fromEntries(Object.entries(op.responses).sort(([a], [b]) => a.localeCompare(b)));
  op.parameters ??= [];
  op.parameters.push({
    name: names.traceId[0].toUpperCase(),
    in: 'header',
    required: false,
    description: 'correlation id, echoed on the response and carried across services; generated when absent',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  });
  if (WRITES.has(method))
    op.parameters.push({
      name: names.idempotencyKey[0].toUpperCase(),
      in: 'header',
      required: false,
      description:
        'the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400',
      schema: { type: 'string', maxLength: 255 },
    });
}

/** An example for every request body and success response that has none, built from the schema's own examples. */
function addExamples(op: Operation, document: OpenAPIObject): void {
  const contents = [
    ...Object.values((op.requestBody as { content?: Record<string, { schema?: object; example?: unknown }> } | undefined)?.content ?? {}),
    ...Object.entries(op.responses)
      .filter(([status]) => status.startsWith('2'))
      .flatMap(([, r]) => Object.values((r as { content?: Record<string, { schema?: object; example?: unknown }> }).content ?? {})),
  ];
  for (const media of contents) if (media.schema && media.example === undefined && !('examples' in media)) media.example = exampleOf(media.schema, document);
}

/**
 * The API reference: every route of the gateway's controllers, the shared statuses and headers, the probes.
 * Served at /docs and /docs/openapi.json; `npm run openapi` writes the committed snapshot docs/openapi.json.
 */
export function buildOpenApiDocument(app: INestApplication, names = new HeaderNames()): OpenAPIObject {
  // the contract classes' property documentation, recorded without @nestjs/swagger (services never load it)
  applyPropertyDocs({ ApiProperty });
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Coffer API')
      .setVersion('1')
      .setDescription(
        [
          'Tokenization vault: tokens, sessions, reactors and reactor formulas, applications and the tenant.',
          'Authenticate every call with the `SVC-API-KEY` header. Bodies are JSON (`application/json`; PATCH /tokens/{id} takes',
          '`application/merge-patch+json`). Every error is `application/problem+json`: `{type?, title, status, detail?, instance?,',
          'errors?}` where `errors` maps each offending field path (`data.number`, `containers[0]`) to its messages.',
        ].join(' '),
      )
      .addApiKey({ type: 'apiKey', name: names.apiKey[0].toUpperCase(), in: 'header', description: describeAuthentication(names) }, 'api-key')
      .addSecurityRequirements('api-key')
      .build(),
    { extraModels: [ProblemDocument], operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` },
  );
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      addShared(op, method, path, names);
      addExamples(op, document);
      // a wildcard route (/proxy/*, documented as /proxy/{path}): the rest of the path, slashes included
      if (path.includes('{path}') && !(op.parameters ?? []).some((p) => 'name' in p && p.name === 'path' && p.in === 'path'))
        op.parameters = [
          {
            name: 'path',
            in: 'path',
            required: true,
            description: 'the rest of the path, slashes included, appended to the destination',
            schema: { type: 'string' },
          },
          ...(op.parameters ?? []),
        ];
    }
  }
  Object.assign(document.paths, operationalPaths());
  document.components ??= {};
  document.components.responses = { ...document.components.responses, ...sharedProblemResponses() };
  document.components.schemas ??= {};
  if (!document.components.schemas['ProblemDocument']) throw new Error(`missing ${getSchemaPath(ProblemDocument)}`);
  return document;
}

/**
 * Swagger UI at /docs, the document at /docs/openapi.json. `ui: false` serves the document only (the unit test: the
 * UI's static-file plugin cannot load under jest).
 */
export function setupOpenApi(app: INestApplication, { ui = true }: { ui?: boolean } = {}): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json', ui, raw: ['json'] });
  return document;
}
