import { ProblemError } from '../problem/problem';
import { validateContract } from '../validation';
import { CreateTokenRequest, DetokenizeRequest, SearchTokensRequest, SearchTokensV2Request, TokenizeRequest, UpdateTokenPatch } from '../tokens/tokens';
import { CreateReactorRequest, ReactRequest } from '../reactors/reactors';
import { CodeReactorRequest, ReactAsyncRequest } from '../reactors/code-reactors';
import { NewReactorRequest, ReactorMergePatch, ReplaceReactorRequest } from '../reactors/reactor-bodies';

const edge = { whitelist: true };
const json = (v: unknown) => JSON.parse(JSON.stringify(v));

function problemOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) return err.problem;
    throw err;
  }
  throw new Error('expected a problem');
}

describe('request bodies validated at the edge', () => {
  describe('tokens', () => {
    it('keeps every field of POST /tokens, drops the rest, and keeps data as given (NUL included)', () => {
      const body = {
        id: 'order-1',
        type: 'token',
        data: { a: ['x\u0000y', 1] },
        mask: '{{ data }}',
        containers: ['/general/high/'],
        metadata: { k: 'v' },
        search_indexes: ['{{ data }}'],
        fingerprint_expression: '{{ data }}',
        deduplicate_token: true,
        expires_at: '2099-01-01T00:00:00Z',
        privacy: { impact_level: 'high' },
      };
      const out = validateContract(CreateTokenRequest, body, undefined, edge);
      const { privacy: _dropped, ...kept } = body;
      expect(json(out)).toEqual(kept);
      expect((out as { data: unknown }).data).toBe(body.data);
    });

    it('refuses NUL in a stored field of a token', () => {
      expect(
        problemOf(() => validateContract(CreateTokenRequest, { type: 'token', data: 'x', metadata: { k: 'a\u0000' } }, undefined, edge)).errors,
      ).toHaveProperty(['metadata.k']);
    });

    it('a merge patch refuses members that are no field of a token (not dropped), keeps null', () => {
      expect(problemOf(() => validateContract(UpdateTokenPatch, { metadata: null, colour: 'red' }, undefined, edge)).errors).toEqual({
        colour: ['is not a field that can be updated'],
      });
      expect(json(validateContract(UpdateTokenPatch, { metadata: null, type: 'token', id: 'x', expires_at: null }, undefined, edge))).toEqual({
        metadata: null,
        type: 'token',
        id: 'x',
        expires_at: null,
      });
    });

    it('search v1: query required, page and size ranges, the search detail', () => {
      expect(problemOf(() => validateContract(SearchTokensRequest, { page: 0, size: 101 }, undefined, edge))).toMatchObject({
        detail: 'The search request is invalid',
        errors: { query: ['is required'], page: [expect.any(String)], size: [expect.any(String)] },
      });
      expect(json(validateContract(SearchTokensRequest, { query: 'type:token', size: 5, extra: 1 }, undefined, edge))).toEqual({
        query: 'type:token',
        size: 5,
      });
    });

    it('search v2: page refused, null size and start are the defaults, query a string', () => {
      expect(problemOf(() => validateContract(SearchTokensV2Request, { page: 2, query: 5, start: 3 }, undefined, edge)).errors).toEqual({
        page: [expect.stringContaining('not supported by v2 lists')],
        query: ['must be a string'],
        start: ['must be a string'],
      });
      expect(json(validateContract(SearchTokensV2Request, { size: null, start: null, other: true }, undefined, edge))).toEqual({ size: null, start: null });
    });

    it('tokenize and detokenize take any JSON as the document, limits checked with paths of the document', () => {
      for (const cls of [TokenizeRequest, DetokenizeRequest]) {
        expect(json(validateContract(cls, { payload: ['a', 1, { b: 'c\u0000' }] }, undefined, edge))).toEqual({ payload: ['a', 1, { b: 'c\u0000' }] });
        expect(validateContract(cls, { payload: 'x' }, undefined, edge)).toEqual(expect.objectContaining({ payload: 'x' }));
        let deep: unknown = 1;
        for (let i = 0; i < 200; i++) deep = { d: deep };
        const problem = problemOf(() => validateContract(cls, { payload: deep }, undefined, edge));
        expect(problem.status).toBe(400);
        expect(Object.keys(problem.errors ?? {}).every((p) => !p.startsWith('payload'))).toBe(true);
      }
    });

    it("keeps reactor-service's own members of the tokenize and detokenize messages", () => {
      expect(json(validateContract(TokenizeRequest, { payload: 1, rendered: true, other: 1 }, undefined, edge))).toEqual({ payload: 1, rendered: true });
      expect(json(validateContract(DetokenizeRequest, { payload: 1, path: 'args', other: 1 }, undefined, edge))).toEqual({ payload: 1, path: 'args' });
    });
  });

  describe('reactors', () => {
    const formula = { id: '3c5d0a1e-8d2f-4a55-8f0e-8b6a4c113d3b' };

    it('POST /reactors: the class of the shape validates (formula or code), both or neither is a 400', () => {
      expect(validateContract(NewReactorRequest, { name: 'r', configuration: {}, formula }, undefined, edge)).toBeInstanceOf(CreateReactorRequest);
      expect(validateContract(NewReactorRequest, { name: 'r', code: 'module.exports = 1' }, undefined, edge)).toBeInstanceOf(CodeReactorRequest);
      expect(problemOf(() => validateContract(NewReactorRequest, { name: 'r', code: 'x', formula, configuration: {} }, undefined, edge)).errors).toEqual({
        code: [expect.stringContaining('cannot be combined with formula')],
        formula: [expect.stringContaining('cannot be combined with code')],
      });
      expect(problemOf(() => validateContract(NewReactorRequest, { name: 'r', configuration: {} }, undefined, edge)).errors).toHaveProperty(['formula']);
      expect(
        problemOf(() => validateContract(NewReactorRequest, { name: 'r', formula, configuration: {}, runtime: {} }, undefined, edge)).errors,
      ).toHaveProperty(['runtime']);
    });

    it('a code reactor: runtime members and configuration values checked by its class', () => {
      const problem = problemOf(() =>
        validateContract(CodeReactorRequest, { name: 'r', code: 'x', runtime: { image: 'node22', dependencies: { a: '1' } }, configuration: { k: { no: 1 } } }),
      );
      expect(Object.keys(problem.errors ?? {}).sort()).toEqual(['configuration.k', 'runtime.dependencies', 'runtime.image']);
      expect(json(validateContract(CodeReactorRequest, { name: 'r', code: 'x', runtime: { image: 'node-bt' }, configuration: { k: 1 } }))).toMatchObject({
        runtime: { image: 'node-bt' },
      });
    });

    it('PUT /reactors/{id}: the members of both shapes are kept, formula too (the service refuses it)', () => {
      const body = { name: 'r', configuration: { K: 'v\u0000' }, code: 'x', runtime: { image: 'node-bt' }, formula, application: null, extra: 1 };
      const { extra: _dropped, ...kept } = body;
      expect(json(validateContract(ReplaceReactorRequest, body, undefined, edge))).toEqual(kept);
      expect(problemOf(() => validateContract(ReplaceReactorRequest, { name: '' }, undefined, edge)).errors).toHaveProperty(['name']);
    });

    it('PATCH /reactors/{id}: any value of a member (null removes), unknown members dropped', () => {
      const patch = { name: null, configuration: { K: null }, application: null, code: 'x', runtime: null, egress: null, formula, nope: 1 };
      const { nope: _dropped, ...kept } = patch;
      expect(json(validateContract(ReactorMergePatch, patch, undefined, edge))).toEqual(kept);
    });

    it('react reads callbackUrl and timeoutMs as callback_url and timeout_ms; different values in both spellings are a 400', () => {
      expect(json(validateContract(ReactRequest, { args: { a: 1 }, callbackUrl: 'https://x', timeoutMs: 20000, given: 1 }, undefined, edge))).toEqual({
        args: { a: 1 },
        callback_url: 'https://x',
        timeout_ms: 20000,
      });
      expect(json(validateContract(ReactRequest, { timeoutMs: 10000, timeout_ms: 10000 }, undefined, edge))).toEqual({ timeout_ms: 10000 });
      expect(problemOf(() => validateContract(ReactRequest, { callbackUrl: 'https://a', callback_url: 'https://b' }, undefined, edge)).errors).toEqual({
        callback_url: [expect.any(String)],
        callbackUrl: [expect.any(String)],
      });
    });

    it('react-async refuses a callback in either spelling instead of dropping it', () => {
      expect(
        Object.keys(
          problemOf(() => validateContract(ReactAsyncRequest, { callbackUrl: 'https://a', callback_url: 'https://b' }, undefined, edge)).errors ?? {},
        ).sort(),
      ).toEqual(['callbackUrl', 'callback_url']);
    });
  });
});
