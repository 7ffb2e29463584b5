import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_TITLES, type Problem } from '@coffer/contracts';

/** 1 MiB (docs/api-reference.md). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * Longest path parameter, as sent (percent-encoded): a token id is at most 400 UTF-16 units, i.e. at most 1,200 UTF-8
 * bytes, 3,600 characters once every byte is percent-encoded. Longer is a 414 problem.
 */
export const MAX_PARAM_LENGTH = 4096;

const TITLES: Record<number, string> = {
  ...STATUS_TITLES,
  408: 'Request Timeout',
  414: 'URI Too Long',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

/**
 * Fixed details for the errors the HTTP layer (Node's parser, Fastify, Nest's router) raises before a handler runs.
 * Their own messages quote the request (the path, a body excerpt): never sent.
 */
const DETAILS_BY_CODE: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: `The request body exceeds the ${BODY_LIMIT_BYTES / 1024 / 1024} MiB limit`,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The Content-Type of the request is not supported',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_BAD_URL: 'The request URL is not valid',
  FST_ERR_MAX_PARAM_LENGTH: `A path segment exceeds ${MAX_PARAM_LENGTH} characters`,
  FST_ERR_ASYNC_CONSTRAINT: 'The request could not be routed',
};

const DETAILS_BY_STATUS: Record<number, string> = {
  400: 'The request is malformed',
  404: 'No route matches the request method and path',
  405: 'The method is not allowed on this path',
  408: 'The request was not received in time',
  413: DETAILS_BY_CODE['FST_ERR_CTP_BODY_TOO_LARGE'],
  414: DETAILS_BY_CODE['FST_ERR_MAX_PARAM_LENGTH'],
  415: DETAILS_BY_CODE['FST_ERR_CTP_INVALID_MEDIA_TYPE'],
  417: 'The Expect header of the request cannot be met',
  431: 'The request headers exceed the size limit',
};

/** The problem for an error of the HTTP layer: status kept (4xx only), title and detail fixed, nothing of the request. */
export function frameworkProblem(status: number, code?: unknown): Problem {
  const s = status >= 400 && status < 500 ? status : 400;
  const detail =
    (typeof code === 'string' && Object.prototype.hasOwnProperty.call(DETAILS_BY_CODE, code) ? DETAILS_BY_CODE[code] : undefined) ?? DETAILS_BY_STATUS[s];
  return { title: TITLES[s] ?? 'Error', status: s, ...(detail ? { detail } : {}) };
}

/** Fastify's `frameworkErrors`: a bad URL or an over-long path parameter, before routing. */
export function onFrameworkError(error: Error & { statusCode?: number; code?: string }, _request: FastifyRequest, reply: FastifyReply): void {
  const problem = frameworkProblem(error.statusCode ?? 400, error.code);
  void reply.status(problem.status).header('content-type', 'application/problem+json').send(problem);
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the bytes (a malformed request line, headers over the
 * limit, a timeout). There is no request to answer, only the socket: write a problem document and close.
 */
export function onClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  endWithProblem(socket, status);
}

/** The server's `connect` event: CONNECT (proxy tunnels) is served by no route; Node would just drop the socket. */
export function onConnect(_req: unknown, socket: Socket): void {
  if (!socket.destroyed) endWithProblem(socket, 405);
}

/**
 * The server's `checkExpectation` event: an `Expect` header other than `100-continue`, which Node would answer with a
 * bare 417 and no body. The request is not read further and no route runs.
 */
export function onCheckExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(frameworkProblem(417));
  res.writeHead(417, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
}

function endWithProblem(socket: Socket, status: number): void {
  const body = JSON.stringify(frameworkProblem(status));
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${TITLES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  } else socket.destroy();
}
