import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '@coffer/contracts';
import { parseJson } from './fastify-setup';
import { frameworkProblem, onClientError, onConnect } from './framework-errors';

function parse(text: string): { err: Error | null; value?: unknown } {
  let out: { err: Error | null; value?: unknown } = { err: null };
  parseJson({} as FastifyRequest, text, (err, value) => (out = { err, value }));
  return out;
}

describe('gateway JSON bodies', () => {
  it('parses JSON, takes an empty body as none, refuses bad JSON with a fixed message', () => {
    expect(parse('{"a":[1,"x",null]}')).toEqual({ err: null, value: { a: [1, 'x', null] } });
    expect(parse('  ')).toEqual({ err: null, value: undefined });
    const bad = parse('{"secret":"tok_live_1",');
    expect((bad.err as ProblemError).problem).toEqual({ title: 'Bad Request', status: 400, detail: 'The request body is not valid JSON' });
  });

  it('refuses a body nested over 64 levels, or holding a non-finite number, naming the field', () => {
    const deep = parse(`{"type":"token","data":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect((deep.err as ProblemError).problem).toMatchObject({ status: 400, errors: { data: [expect.stringContaining('64')] } });
    expect(parse(`{"data":${'{"a":'.repeat(63)}1${'}'.repeat(63)}}`).err).toBeNull();
    const inf = parse('{"data":{"expiration_month":1e309}}');
    expect((inf.err as ProblemError).problem).toMatchObject({ status: 400, errors: { 'data.expiration_month': ['must be a finite number'] } });
  });
});

describe('errors of the HTTP layer', () => {
  it('are problem documents with fixed details, never the error message', () => {
    expect(frameworkProblem(414, 'FST_ERR_MAX_PARAM_LENGTH')).toEqual({ title: 'URI Too Long', status: 414, detail: 'A path segment exceeds 4096 characters' });
    expect(frameworkProblem(404)).toEqual({ title: 'Not Found', status: 404, detail: 'No route matches the request method and path' });
    expect(frameworkProblem(413, 'FST_ERR_CTP_BODY_TOO_LARGE').detail).toBe('The request body exceeds the 1 MiB limit');
    expect(frameworkProblem(400, 'FST_ERR_BAD_URL').detail).toBe('The request URL is not valid');
    expect(frameworkProblem(500).status).toBe(400);
  });

  it('answer a request Node could not parse with a problem document, then close', () => {
    const written: string[] = [];
    const socket = { destroyed: false, writable: true, end: (s: string) => written.push(s), destroy: () => undefined } as unknown as Socket;
    onClientError(Object.assign(new Error('Parse Error: Invalid method'), { code: 'HPE_INVALID_METHOD' }), socket);
    onClientError(Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), socket);

    const [head, body] = written[0].split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain('Content-Type: application/problem+json');
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toEqual({ title: 'Bad Request', status: 400, detail: 'The request is malformed' });
    expect(written[1]).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    onConnect({}, socket);
    expect(written[2]).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n[^]*application\/problem\+json/);
    const reset = { destroyed: false, writable: true, end: jest.fn(), destroy: jest.fn() } as unknown as Socket;
    onClientError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), reset);
    expect((reset as unknown as { end: jest.Mock }).end).not.toHaveBeenCalled();
  });
});
