import type { ServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ConfigError, envInt } from '@coffer/observability';
import { BODY_LIMIT_BYTES } from './framework-errors';

/** How long a client may take to send a request, and keep an idle connection (docs/availability.md). */
export interface RequestTimeouts {
  /** from the first byte of a request to the end of its headers (slow headers: 408, closed) */
  headersTimeoutMs: number;
  /** a body is allowed this much, plus its Content-Length at bodyMinBytesPerSecond */
  bodyTimeoutMs: number;
  /** the slowest upload still served: a body taking longer than its allowance is cut off (connection closed) */
  bodyMinBytesPerSecond: number;
  /** Node's bound on a whole request, headers and body (also bodies without Content-Length): 408, closed */
  requestTimeoutMs: number;
  /** an idle keep-alive connection is closed after this */
  keepAliveTimeoutMs: number;
  /** how often Node checks the headers and request timeouts (they are only enforced this often) */
  connectionsCheckIntervalMs: number;
}

/** The time a body of `contentLength` bytes (the largest accepted when unknown) is given to arrive. */
export function bodyAllowanceMs(t: Pick<RequestTimeouts, 'bodyTimeoutMs' | 'bodyMinBytesPerSecond'>, contentLength: number | undefined): number {
  const bytes = contentLength === undefined ? BODY_LIMIT_BYTES : Math.min(contentLength, BODY_LIMIT_BYTES);
  return t.bodyTimeoutMs + Math.ceil((bytes * 1000) / t.bodyMinBytesPerSecond);
}

/** HTTP_HEADERS_TIMEOUT_MS, HTTP_BODY_TIMEOUT_MS, HTTP_BODY_MIN_BYTES_PER_S, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_CONNECTIONS_CHECK_INTERVAL_MS */
export function requestTimeoutsFromEnv(): RequestTimeouts {
  const t: RequestTimeouts = {
    headersTimeoutMs: envInt('HTTP_HEADERS_TIMEOUT_MS', 10_000, 1_000, 300_000),
    bodyTimeoutMs: envInt('HTTP_BODY_TIMEOUT_MS', 10_000, 1_000, 600_000),
    bodyMinBytesPerSecond: envInt('HTTP_BODY_MIN_BYTES_PER_S', 16_384, 1_024, 100 * 1024 * 1024),
    requestTimeoutMs: envInt('HTTP_REQUEST_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    keepAliveTimeoutMs: envInt('HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 3_600_000),
    connectionsCheckIntervalMs: envInt('HTTP_CONNECTIONS_CHECK_INTERVAL_MS', 1_000, 100, 60_000),
  };
  // Node refuses headersTimeout > requestTimeout; and the outer bound must not cut off a full body sent at the minimum rate
  const needed = t.headersTimeoutMs + bodyAllowanceMs(t, BODY_LIMIT_BYTES);
  if (t.requestTimeoutMs < needed)
    throw new ConfigError(
      `HTTP_REQUEST_TIMEOUT_MS must be at least ${needed} (HTTP_HEADERS_TIMEOUT_MS + HTTP_BODY_TIMEOUT_MS + 1 MiB at HTTP_BODY_MIN_BYTES_PER_S), got "${t.requestTimeoutMs}"`,
    );
  return t;
}

/**
 * The options of the HTTP server (Fastify's own where it has one, Node's `http` options for the rest). Fastify's
 * defaults leave a request without any timeout (requestTimeout 0) and Node checks its timeouts every 30 s.
 */
export function serverTimeoutOptions(t: RequestTimeouts): { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; http: ServerOptions } {
  return {
    keepAliveTimeout: t.keepAliveTimeoutMs,
    requestTimeout: t.requestTimeoutMs,
    // no idle-socket timeout while a request is being served: its RPC deadlines bound it (a react takes up to 15 s)
    connectionTimeout: 0,
    http: {
      headersTimeout: t.headersTimeoutMs,
      requestTimeout: t.requestTimeoutMs,
      keepAliveTimeout: t.keepAliveTimeoutMs,
      connectionsCheckingInterval: t.connectionsCheckIntervalMs,
    },
  };
}

function contentLengthOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * A body must arrive at the minimum rate: headers then silence (a slow-body attack) is cut off after
 * `bodyAllowanceMs`, the connection closed, whether or not the request was already answered (a 401 sent before the
 * body was read leaves the connection open to receive the rest of it). Node's requestTimeout stays the outer bound.
 */
export function registerBodyDeadline(fastify: FastifyInstance, t: RequestTimeouts): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    const length = contentLengthOf(raw.headers['content-length']);
    const hasBody = raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length > 0);
    if (!hasBody || raw.complete) return done();
    const socket = raw.socket;
    const timer = setTimeout(
      () => {
        if (!raw.complete) socket.destroy();
      },
      bodyAllowanceMs(t, length),
    );
    timer.unref();
    // a keep-alive connection carries many requests: nothing of this one may stay attached to its socket
    const clear = () => {
      clearTimeout(timer);
      socket.off('close', clear);
      raw.off('end', clear);
    };
    raw.once('end', clear);
    socket.once('close', clear);
    done();
  });
}
