import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, STATUS_TITLES, type Principal, type Problem } from '@coffer/contracts';
import { envInt, validateConfig } from '@coffer/observability';
import { InFlightBudget, InFlightShares } from './in-flight-shares';
import { ProcessPressure } from './process-pressure';

export interface BackPressureLimits {
  /** API requests being served at once by this gateway process; more are refused at once (0: no limit) */
  maxInFlight: number;
  /**
   * synchronous reactor invocations in flight, counted apart: each may hold its slot for up to 10 s, and they must
   * not be able to crowd every other request (another tenant's reads) out of the gateway (0: no limit)
   */
  maxReactsInFlight: number;
  /**
   * requests without an authenticated principal yet: keyless routes (the docs, unknown paths) and keys being looked
   * up in session-service. Apart from the budgets above, so anonymous clients never hold an authenticated slot (0: no limit)
   */
  maxUnauthenticatedInFlight: number;
  /** the most of maxInFlight (and of maxReactsInFlight) one tenant may hold, in percent */
  tenantSharePercent: number;
  /** mean event-loop delay over a second above which new requests are refused (0: not checked) */
  maxEventLoopDelayMs: number;
  /** V8 heap in use above which new requests are refused (0: not checked) */
  maxHeapUsedBytes: number;
  /** the Retry-After sent with every 503 */
  retryAfterSeconds: number;
}

/** HTTP_MAX_IN_FLIGHT, …_REACTS_…, …_UNAUTHENTICATED_…, HTTP_TENANT_SHARE_PERCENT, … (docs/operations.md). */
export function backPressureFromEnv(): BackPressureLimits {
  return {
    maxInFlight: envInt('HTTP_MAX_IN_FLIGHT', 64, 0, 1_000_000),
    maxReactsInFlight: envInt('HTTP_MAX_REACTS_IN_FLIGHT', 64, 0, 1_000_000),
    maxUnauthenticatedInFlight: envInt('HTTP_MAX_UNAUTHENTICATED_IN_FLIGHT', 16, 0, 1_000_000),
    tenantSharePercent: envInt('HTTP_TENANT_SHARE_PERCENT', 50, 1, 100),
    maxEventLoopDelayMs: envInt('HTTP_MAX_EVENT_LOOP_DELAY_MS', 1_000, 0, 60_000),
    maxHeapUsedBytes: envInt('HTTP_MAX_HEAP_MB', 0, 0, 1_000_000) * 1024 * 1024,
    retryAfterSeconds: envInt('OVERLOAD_RETRY_AFTER_S', 1, 1, 3_600),
  };
}

/**
 * How the admission hook learns who is calling, as early as the headers: the same path as the route guard
 * (ApiKeyGuard), which then reuses the principal. Both throw a ProblemError (401; 503/504 when session-service
 * cannot answer).
 */
export interface EarlyAuthenticator {
  /** the principal when it is known without asking anyone (cached); undefined when it must be looked up */
  cached(request: FastifyRequest): Principal | undefined;
  /**
   * The tenant of a key that authenticated lately but whose cache entry expired: while it is looked up again the
   * request is admitted in that tenant's share instead of the unauthenticated budget, so a flood of unknown keys can
   * never refuse a known caller. Admission only: the request still waits for the lookup before anything runs.
   */
  recentTenant?(request: FastifyRequest): string | undefined;
  /** a lookup of this request's key is already in flight: joining it costs session-service nothing */
  lookingUp?(request: FastifyRequest): boolean;
  lookup(request: FastifyRequest): Promise<Principal>;
}

/** Probes and scrapes are answered however loaded the process is: an orchestrator must not kill a busy gateway. */
const EXEMPT_ROUTES = new Set(['/healthz', '/readyz']);

/** The synchronous react route: the one that may legitimately take seconds. By route, never the raw path (`%72eact`). */
const SYNC_REACT_ROUTE = '/reactors/:id/react';

/** Routes Fastify serves outside Nest without a key (the API reference, the console); everything else Nest serves needs one. */
function isKeylessRoute(url: string | undefined): boolean {
  return url === undefined || url === '/docs' || url.startsWith('/docs/') || url === '/console' || url.startsWith('/console/');
}

function overloaded(reply: FastifyReply, retryAfterSeconds: number): Problem {
  void reply.status(503).header('retry-after', String(retryAfterSeconds)).header('content-type', 'application/problem+json');
  return { title: STATUS_TITLES[503], status: 503, detail: 'The service is overloaded; retry after the time given in Retry-After' };
}

/** The same document the route guard's ProblemError becomes (ProblemFilter). */
function sendProblem(reply: FastifyReply, err: unknown): void {
  const problem =
    err instanceof ProblemError ? err.problem : { title: STATUS_TITLES[500] ?? 'Internal Server Error', status: 500, detail: 'An unexpected error occurred' };
  void reply.status(problem.status).header('content-type', 'application/problem+json').send(problem);
}

/** Holds `release` until the response is over: 'close' fires once whether it was sent or the client went away. */
function holdUntilClosed(reply: FastifyReply, release: () => void): void {
  if (reply.raw.closed) return release();
  reply.raw.once('close', release);
}

/**
 * Back-pressure and admission: under more load than the process can serve, new API requests fail fast with a 503
 * problem and Retry-After instead of queueing in memory until their deadline.
 *
 * Admission runs once the headers are in, before the body is read (preParsing, after CORS and the trace id):
 * - the API key is resolved there (`auth`); a missing or unknown key is a 401 before any body is read;
 * - a request whose principal is not known yet (a key being looked up, a keyless route) holds a slot of the small
 *   unauthenticated budget, never one of the authenticated traffic's;
 * - an authenticated request takes a slot of its budget (synchronous reacts apart) within its tenant's share
 *   (InFlightShares): one tenant's slow requests cannot take every slot.
 * ProcessPressure adds the process's own saturation (event-loop delay, heap). Every 503 the gateway sends (a
 * backing service unavailable or busy included) carries Retry-After.
 */
export function registerBackPressure(
  fastify: FastifyInstance,
  limits: BackPressureLimits = validateConfig('gateway', backPressureFromEnv),
  auth?: EarlyAuthenticator,
): void {
  const api = new InFlightShares(limits.maxInFlight, limits.tenantSharePercent);
  const reacts = new InFlightShares(limits.maxReactsInFlight, limits.tenantSharePercent);
  const unauthenticated = new InFlightBudget(limits.maxUnauthenticatedInFlight);
  const refuse = (reply: FastifyReply) => void reply.send(overloaded(reply, limits.retryAfterSeconds));

  const admitAuthenticated = (request: FastifyRequest, reply: FastifyReply, principal: Principal): boolean => {
    const shares = request.routeOptions.url === SYNC_REACT_ROUTE ? reacts : api;
    const release = shares.tryAcquire(principal.tenantId);
    if (!release) return false;
    holdUntilClosed(reply, release);
    return true;
  };

  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const route = request.routeOptions.url;
    if (route !== undefined && EXEMPT_ROUTES.has(route)) return done(null, payload);
    if (isKeylessRoute(route) || !auth) {
      // without an authenticator (tests of this module alone), every request counts as one tenant's
      if (auth) {
        const release = unauthenticated.tryAcquire();
        if (!release) return refuse(reply);
        holdUntilClosed(reply, release);
        return done(null, payload);
      }
      return admitAuthenticated(request, reply, { tenantId: '' } as Principal) ? done(null, payload) : refuse(reply);
    }
    let known: Principal | undefined;
    try {
      known = auth.cached(request);
    } catch (err) {
      return sendProblem(reply, err);
    }
    if (known) return admitAuthenticated(request, reply, known) ? done(null, payload) : refuse(reply);
    // the key must be looked up: meanwhile the request holds a slot of its recent tenant's share, else it is
    // unauthenticated
    const recent = auth.recentTenant?.(request);
    const pending =
      recent !== undefined
        ? (request.routeOptions.url === SYNC_REACT_ROUTE ? reacts : api).tryAcquire(recent)
        : auth.lookingUp?.(request)
          ? () => undefined // joins the lookup a request with the same key started (and holds a slot for)
          : unauthenticated.tryAcquire();
    if (!pending) return refuse(reply);
    auth.lookup(request).then(
      (principal) => {
        if (recent !== undefined && principal.tenantId === recent) {
          holdUntilClosed(reply, pending);
          return done(null, payload);
        }
        pending();
        if (admitAuthenticated(request, reply, principal)) done(null, payload);
        else refuse(reply);
      },
      (err: unknown) => {
        pending();
        sendProblem(reply, err);
      },
    );
  });

  // the process's own saturation (event-loop delay, heap): sampled only while requests arrive (process-pressure.ts)
  const pressure = new ProcessPressure(limits);
  if (pressure.enabled) {
    fastify.addHook('onRequest', (request, reply, done) => {
      pressure.touch();
      const route = request.routeOptions.url;
      if (pressure.saturated && (route === undefined || !EXEMPT_ROUTES.has(route))) return void reply.send(overloaded(reply, limits.retryAfterSeconds));
      done();
    });
    fastify.addHook('onClose', (_instance, done) => {
      pressure.stop();
      done();
    });
  }

  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) void reply.header('retry-after', String(limits.retryAfterSeconds));
    return payload;
  });
}
