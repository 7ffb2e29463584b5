import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { STATUS_TITLES, type Problem } from '@coffer/contracts';
import { envInt, validateConfig } from '@coffer/observability';

export interface BackPressureLimits {
  /** API requests being served at once by this gateway process; more are refused at once (0: no limit) */
  maxInFlight: number;
  /**
   * synchronous reactor invocations in flight, counted apart: each may hold its slot for up to 10 s, and they must
   * not be able to crowd every other request (another tenant's reads) out of the gateway (0: no limit)
   */
  maxReactsInFlight: number;
  /** mean event-loop delay over a second above which new requests are refused (0: not checked) */
  maxEventLoopDelayMs: number;
  /** V8 heap in use above which new requests are refused (0: not checked) */
  maxHeapUsedBytes: number;
  /** the Retry-After sent with every 503 */
  retryAfterSeconds: number;
}

/** HTTP_MAX_IN_FLIGHT, HTTP_MAX_EVENT_LOOP_DELAY_MS, HTTP_MAX_HEAP_MB, OVERLOAD_RETRY_AFTER_S (docs/operations.md). */
export function backPressureFromEnv(): BackPressureLimits {
  return {
    maxInFlight: envInt('HTTP_MAX_IN_FLIGHT', 64, 0, 1_000_000),
    maxReactsInFlight: envInt('HTTP_MAX_REACTS_IN_FLIGHT', 64, 0, 1_000_000),
    maxEventLoopDelayMs: envInt('HTTP_MAX_EVENT_LOOP_DELAY_MS', 1_000, 0, 60_000),
    maxHeapUsedBytes: envInt('HTTP_MAX_HEAP_MB', 0, 0, 1_000_000) * 1024 * 1024,
    retryAfterSeconds: envInt('OVERLOAD_RETRY_AFTER_S', 1, 1, 3_600),
  };
}

/** Probes and scrapes are answered however loaded the process is: an orchestrator must not kill a busy gateway. */
const EXEMPT_PATHS = new Set(['/healthz', '/readyz']);

/** POST /reactors/{id}/react: the one route that may legitimately take seconds */
const SYNC_REACT = /^\/reactors\/[^/]+\/react\/?$/;

function pathOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

function overloaded(reply: FastifyReply, retryAfterSeconds: number): Problem {
  void reply.status(503).header('retry-after', String(retryAfterSeconds)).header('content-type', 'application/problem+json');
  return { title: STATUS_TITLES[503], status: 503, detail: 'The service is overloaded; retry after the time given in Retry-After' };
}

/**
 * Back-pressure: under more load than the process can serve, new API requests fail fast with a 503 problem and
 * Retry-After instead of queueing in memory until their deadline. Two signals: the number of requests in flight
 * (the queue itself), and @fastify/under-pressure's event-loop delay and heap (the process is saturated). Every 503
 * the gateway sends (a backing service unavailable or busy included) carries Retry-After.
 */
export function registerBackPressure(fastify: FastifyInstance, limits: BackPressureLimits = validateConfig('gateway', backPressureFromEnv)): void {
  const budgets = { api: { limit: limits.maxInFlight, inFlight: 0 }, react: { limit: limits.maxReactsInFlight, inFlight: 0 } };
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = pathOf(request);
    if (EXEMPT_PATHS.has(path)) return done();
    const budget = SYNC_REACT.test(path) ? budgets.react : budgets.api;
    if (budget.limit <= 0) return done();
    if (budget.inFlight >= budget.limit) return void reply.send(overloaded(reply, limits.retryAfterSeconds));
    budget.inFlight++;
    // 'close' fires once whether the response was sent or the client went away
    reply.raw.once('close', () => budget.inFlight--);
    done();
  });

  void fastify.register(underPressure, {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: limits.maxHeapUsedBytes,
    retryAfter: limits.retryAfterSeconds,
    // a reply sent here ends the request; not sending one lets it through
    pressureHandler: (request: FastifyRequest, reply: FastifyReply) => {
      if (!EXEMPT_PATHS.has(pathOf(request))) void reply.send(overloaded(reply, limits.retryAfterSeconds));
    },
  });

  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) void reply.header('retry-after', String(limits.retryAfterSeconds));
    return payload;
  });
}
