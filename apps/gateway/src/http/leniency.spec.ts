import type { FastifyRequest } from 'fastify';
import { ProblemError } from '@coffer/contracts';
import { HeaderNames } from './coffer-headers';
import { parseOtherContentType, traceHeaderNames } from './fastify-setup';

function parse(method: string, body: string): { err: Error | null; value?: unknown } {
  let out: { err: Error | null; value?: unknown } = { err: null };
  parseOtherContentType({ method } as FastifyRequest, Buffer.from(body), (err, value) => (out = { err, value }));
  return out;
}

describe('bodies in other content types', () => {
  it('an empty POST is no body; anything else is a 415 with the fixed detail', () => {
    expect(parse('POST', '')).toEqual({ err: null, value: undefined });
    for (const [method, body] of [
      ['POST', 'a=1'],
      ['PUT', ''],
      ['PATCH', ''],
    ]) {
      expect((parse(method, body).err as ProblemError).problem).toEqual({
        title: 'Unsupported Media Type',
        status: 415,
        detail: 'The Content-Type of the request is not supported',
      });
    }
  });
});

describe('a JSON body labelled application/json-patch+json', () => {
  const put = (url: string, body: string) => {
    let out: { err: Error | null; value?: unknown } = { err: null };
    const req = { method: 'PUT', url, routeOptions: { url }, headers: { 'content-type': 'application/json-patch+json' } } as unknown as FastifyRequest;
    parseOtherContentType(req, Buffer.from(body), (err, value) => (out = { err, value }));
    return out;
  };
  it("is read as JSON on a member's role (the mirrored SDK labels it so), and is a 415 anywhere else", () => {
    expect(put('/tenants/self/members/:id', '{"role":"ADMIN"}')).toEqual({ err: null, value: { role: 'ADMIN' } });
    expect((put('/applications/:id', '{"name":"x"}').err as ProblemError).problem.status).toBe(415);
  });
});

describe('trace id header names', () => {
  const names = new HeaderNames('BT');
  it('SVC-TRACE-ID always, plus the alias the client used for the trace id or the key', () => {
    expect(traceHeaderNames({ 'svc-api-key': 'k' }, names)).toEqual(['svc-trace-id']);
    expect(traceHeaderNames({ 'bt-trace-id': 't' }, names)).toEqual(['svc-trace-id', 'bt-trace-id']);
    expect(traceHeaderNames({ 'bt-api-key': 'k' }, names)).toEqual(['svc-trace-id', 'bt-trace-id']);
    expect(traceHeaderNames({ 'bt-api-key': 'k' }, new HeaderNames(''))).toEqual(['svc-trace-id']);
  });
});
