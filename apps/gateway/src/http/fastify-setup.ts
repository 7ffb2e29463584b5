import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError, TRACE_ID_PATTERN, findJsonLimitViolation, jsonLimitProblem } from '@coffer/contracts';
import { frameworkProblem } from './framework-errors';
import { httpDuration, httpRequests, runChecks, type Logger, type ReadinessCheck } from '@coffer/observability';
import { HeaderNames, idempotencyKeyFrom } from './coffer-headers';
import type { GatewayRequest } from './gateway-request';
import { closeConnectionsWhenStopping } from './http-drain';

export { BODY_LIMIT_BYTES } from './framework-errors';

/**
 * JSON bodies: an empty body is "no body" (POST /sessions), bad JSON is a 400 problem, and so is a body breaking the
 * JSON limits of libs/contracts (nested over 64 levels, a number JSON.parse turned into ±Infinity): no route ever
 * sees one. JSON.parse itself is iterative, so any depth within 1 MiB parses; the check is a cheap iterative walk.
 */
export function parseJson(req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) {
  if (isProxyRoute(req)) return done(null, typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') return done(null, undefined);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return done(new ProblemError(400, 'The request body is not valid JSON'));
  }
  const violation = findJsonLimitViolation(value);
  if (violation) return done(jsonLimitProblem(violation));
  done(null, value);
}

/**
 * The proxy's routes (/proxy, /proxy/**) take any body and keep its bytes: what they mean is the destination's
 * business, and detokenization reads them as they came (proxy-service).
 */
export function isProxyRoute(req: FastifyRequest): boolean {
  const route = req.routeOptions?.url;
  return route === '/proxy' || (route?.startsWith('/proxy/') ?? false);
}

/**
 * Routes whose clients label a plain JSON body `application/json-patch+json` (the mirrored service's node SDK does for
 * a member's role: `{"role": …}`, not an RFC 6902 patch): read as JSON there, and nowhere else.
 */
const JSON_PATCH_LABELLED_JSON = new Set(['PUT /tenants/self/members/:id']);

function sentAsJsonPatch(req: FastifyRequest): boolean {
  const type = req.headers?.['content-type']?.split(';')[0].trim().toLowerCase();
  return type === 'application/json-patch+json' && JSON_PATCH_LABELLED_JSON.has(`${req.method} ${req.routeOptions?.url ?? ''}`);
}

/**
 * Any content type other than JSON: a POST without a body is a POST without a body, whatever it claims to be
 * (clients of the mirrored service send `application/x-www-form-urlencoded` with no body for POST /sessions and
 * POST /applications/{id}/regenerate). A body that is there, or any other method, stays a 415.
 */
export function parseOtherContentType(req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) {
  if (isProxyRoute(req)) return done(null, typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  if (sentAsJsonPatch(req)) return parseJson(req, body, done);
  if (req.method === 'POST' && body.length === 0) return done(null, undefined);
  done(ProblemError.fromProblem(frameworkProblem(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')));
}

/**
 * The trace id goes back as SVC-TRACE-ID and also under the alias the client used (`BT-TRACE-ID` when it sent that,
 * or when it authenticated with `BT-API-KEY`): clients of the mirrored service read their own header name.
 */
export function traceHeaderNames(headers: Record<string, string | string[] | undefined>, names: HeaderNames): string[] {
  const used = (list: string[]) => list.find((n) => headers[n] !== undefined);
  const alias = used(names.traceId.slice(1)) ?? names.traceId[names.apiKey.indexOf(used(names.apiKey.slice(1)) ?? '')];
  return alias ? ['svc-trace-id', alias] : ['svc-trace-id'];
}

export function configureFastify(fastify: FastifyInstance, logger: Logger, readiness: Record<string, ReadinessCheck>, isShuttingDown: () => boolean): void {
  const headers = new HeaderNames();
  // JSON only: any other content type (text/plain included) is a 415, unless a POST has no body at all.
  fastify.removeAllContentTypeParsers();
  // as bytes: the proxy's routes keep them (parseJson decodes them as UTF-8 for every other route)
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJson);
  fastify.addContentTypeParser('application/merge-patch+json', { parseAs: 'buffer' }, parseJson);
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, parseOtherContentType);

  fastify.addHook('onRequest', async (request, reply) => {
    const req = request as GatewayRequest;
    const given = HeaderNames.first(req.headers, headers.traceId);
    req.traceId = given && TRACE_ID_PATTERN.test(given) ? given : randomUUID();
    // on the proxy's routes `Idempotency-Key` is the destination's header (payment APIs take it): forwarded, not read
    const idempotency = idempotencyKeyFrom(req.headers, headers.idempotencyKey, !isProxyRoute(req));
    req.idempotencyKey = idempotency.key;
    req.idempotencyKeyConflict = idempotency.conflicting;
    for (const name of traceHeaderNames(req.headers, headers)) void reply.header(name, req.traceId);
  });

  // the owning service answered from its idempotency record (callContext's onReplay)
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if ((request as GatewayRequest).idempotentReplay) void reply.header('svc-idempotent-replay', 'true');
    done(null, payload);
  });

  closeConnectionsWhenStopping(fastify, isShuttingDown);

  // One line per request: never headers or bodies (keys and token data live there).
  fastify.addHook('onResponse', async (request, reply) => {
    const req = request as GatewayRequest;
    const route = request.routeOptions?.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    httpRequests.labels(request.method, route, String(reply.statusCode)).inc();
    httpDuration.labels(request.method, route).observe(seconds);
    logger.info(
      {
        traceId: req.traceId,
        method: request.method,
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        tenantId: req.principal?.tenantId,
        applicationId: req.principal?.applicationId,
      },
      'request',
    );
  });

  fastify.get('/healthz', async () => ({ status: 'ok' }));
  fastify.get('/readyz', async (_req, reply) => {
    const report = await runChecks(readiness);
    const ready = report.ready && !isShuttingDown();
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: report.checks });
  });
}
