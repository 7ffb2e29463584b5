import type { FastifyInstance } from 'fastify';

/** While the gateway stops, every answer ends its connection, so the client's next request goes to another replica. */
export function closeConnectionsWhenStopping(fastify: FastifyInstance, isStopping: () => boolean): void {
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (isStopping()) void reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * Stops the HTTP server and waits for the requests it is answering, before the rest of the gateway closes: the bus
 * must stay up until the last answer is out (a reply still on its way from a service would otherwise be lost). New
 * connections are refused at once; a request on an open connection is still answered, and each answer carries
 * `Connection: close` (closeConnectionsWhenStopping), so no keep-alive connection holds the close up. A request still
 * unanswered after `cutAfterMs` (a client trickling its body) has its connection cut, so the caller's own close
 * still runs before the process's forced exit.
 */
export async function drainHttp(fastify: FastifyInstance, cutAfterMs: number): Promise<void> {
  const cut = setTimeout(() => fastify.server.closeAllConnections(), cutAfterMs);
  try {
    await fastify.close();
  } finally {
    clearTimeout(cut);
  }
}

/** When to cut what is left: 3 s before the forced exit, so the bus and the audit counts still close in order. */
export function cutAfterMs(shutdownTimeoutMs: number): number {
  return Math.max(shutdownTimeoutMs - 3000, shutdownTimeoutMs / 2);
}
