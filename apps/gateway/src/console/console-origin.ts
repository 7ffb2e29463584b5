import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_TITLES } from '@coffer/contracts';
import { onCheckExpectation, onClientError, onConnect } from '../http/framework-errors';
import { serverTimeoutOptions, type RequestTimeouts } from '../http/request-timeouts';

/**
 * The console's own origin. The gateway answers on two listeners with one set of routes: the API's port, and the
 * console's, whose origin serves the console's pages and the API calls those pages make — and nothing else. A proxied
 * answer (the destination's bytes) is only ever served on the API's origin, so whatever it holds is another origin
 * than the console's pages and cannot read them, and the console's session cookie authenticates only requests that
 * arrive on the console's listener.
 */
const consoleSockets = new WeakSet<Socket>();

/** Whether this request came in on the console's listener. */
export function arrivedOnConsole(request: FastifyRequest): boolean {
  return consoleSockets.has(request.raw.socket);
}

/**
 * Paths the console's origin never serves: the proxy (outside content), the API reference (pages of their own) and
 * the probes (the cluster's, on the API's port).
 */
const NOT_ON_CONSOLE_ORIGIN = ['/proxy', '/docs', '/healthz', '/readyz'];

function notForConsoleOrigin(path: string): boolean {
  return NOT_ON_CONSOLE_ORIGIN.some((p) => path === p || path.startsWith(`${p}/`));
}

function isConsolePath(path: string): boolean {
  return path === '/console' || path.startsWith('/console/');
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply
    .status(404)
    .header('content-type', 'application/problem+json')
    .send({ title: STATUS_TITLES[404] ?? 'Not Found', status: 404, detail: 'The console origin serves the console only' });
}

/**
 * What each origin serves: the API origin sends /console (and anything under it) to the console's origin with a
 * temporary redirect that keeps the method; the console origin refuses the proxy and the API reference, and sends
 * its root to the console.
 */
export function separateConsoleOrigin(fastify: FastifyInstance, consoleUrl: string | undefined): void {
  // a callback hook with a fast path: it runs on every request of the API
  fastify.addHook('onRequest', (request, reply, done) => {
    const url = request.raw.url ?? '/';
    const onConsole = arrivedOnConsole(request);
    if (!onConsole && !(consoleUrl && url.startsWith('/console'))) return done();
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (onConsole) {
      if (notForConsoleOrigin(path)) return void notFound(reply);
      if (path === '/') return void reply.redirect('/console/', 302);
      return done();
    }
    if (isConsolePath(path)) return void reply.header('cache-control', 'no-store').redirect(`${consoleUrl}${url}`, 307);
    done();
  });
}

/**
 * The console's listener: a plain HTTP server with the API server's timeouts, handing every request to the same
 * Fastify routes (Fastify's public `routing`), so hooks, guards and limits are the API's.
 */
export async function listenForConsole(fastify: FastifyInstance, port: number, timeouts: RequestTimeouts): Promise<http.Server> {
  const options = serverTimeoutOptions(timeouts);
  const server = http.createServer({ ...options.http, keepAliveTimeout: options.keepAliveTimeout }, (req, res) => fastify.routing(req, res));
  server.on('connection', (socket: Socket) => consoleSockets.add(socket));
  server.on('clientError', onClientError);
  server.on('connect', onConnect);
  server.on('checkExpectation', onCheckExpectation);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '::', () => resolve());
  }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EAFNOSUPPORT' && err.code !== 'EADDRNOTAVAIL') throw err;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '0.0.0.0', () => resolve());
    });
  });
  return server;
}

/** Stops the console's listener like the API's (http-drain.ts): answers in flight finish, what is left is cut. */
export async function closeConsoleListener(server: http.Server, cutAfterMs: number): Promise<void> {
  const cut = setTimeout(() => server.closeAllConnections(), cutAfterMs);
  server.closeIdleConnections();
  try {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  } finally {
    clearTimeout(cut);
  }
}
