import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES } from './framework-errors';

/** How much of a refused body the gateway reads, and for how long, before it answers and closes. */
export interface RefusedBodyReading {
  /** a body declared larger than this is answered at once, unread; one sent chunked is read up to this much more */
  maxBytes: number;
  maxMs: number;
}

/** 8 MiB and 5 s: a body a little over the 1 MiB limit (the usual mistake) is read whole at any common upload speed. */
export const REFUSED_BODY_READING: RefusedBodyReading = { maxBytes: 8 * BODY_LIMIT_BYTES, maxMs: 5_000 };

/**
 * An answer that closes the connection before the request's body has arrived (a 413 decided on the Content-Length,
 * or after the first MiB of a chunked body) waits until the rest of the body is in, read and dropped, within
 * `reading`'s bounds. Closing a socket with bytes still arriving makes the kernel answer them with a reset, and a
 * client still writing its body then fails with EPIPE or ECONNRESET instead of reading its 413 (the "lingering
 * close" of other HTTP servers). Answers that keep the connection open need nothing: Node reads and drops an unread
 * body itself before the next request. Past the bounds, the answer goes out and the connection closes as before.
 */
export function readRefusedBodies(fastify: FastifyInstance, reading: RefusedBodyReading = REFUSED_BODY_READING): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const body = request.raw;
    if (body.complete || body.destroyed || reply.getHeader('connection') !== 'close') return done(null, payload);
    if (Number(body.headers['content-length']) > reading.maxBytes) return done(null, payload);
    let read = 0;
    const answer = () => {
      clearTimeout(timer);
      body.off('data', count);
      body.off('end', answer);
      body.off('close', answer);
      done(null, payload);
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > reading.maxBytes) answer();
    };
    const timer = setTimeout(answer, reading.maxMs);
    body.on('data', count);
    body.once('end', answer);
    body.once('close', answer);
    body.resume();
  });
}
