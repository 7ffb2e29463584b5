import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filesThatRan, isReexportGetter, positionsOf, repositoryFileOf } from './coverage-files.mjs';

test('offsets become 0-based lines and columns', () => {
  const at = positionsOf('ab\ncd\n\nef');
  assert.deepEqual(at(0), { line: 0, column: 0 });
  assert.deepEqual(at(4), { line: 1, column: 1 });
  assert.deepEqual(at(7), { line: 3, column: 0 });
});

test("a bundle's sources become repository paths; libraries, webpack's runtime and generated code are not counted", () => {
  assert.equal(repositoryFileOf('webpack:///./src/tokens/tokens.handler.ts', 'token-service'), 'apps/token-service/src/tokens/tokens.handler.ts');
  assert.equal(repositoryFileOf('webpack:///../../libs/db/src/sql-pool.ts', 'token-service'), 'libs/db/src/sql-pool.ts');
  assert.equal(repositoryFileOf('webpack:///external commonjs "pg"', 'token-service'), undefined);
  assert.equal(repositoryFileOf('webpack:///webpack/bootstrap', 'token-service'), undefined);
  assert.equal(repositoryFileOf('webpack:///../../libs/db/src/generated/prisma/client.ts', 'token-service'), undefined);
});

test('only the named functions of the bundle that ran count, each under the file it was written in', () => {
  // two functions on two lines of a bundle, each mapped to its own source (VLQ: line 0 → a.ts, line 1 → b.ts)
  const bundleText = 'function a(){}\nfunction b(){}\n';
  const sourceMap = { version: 3, sources: ['webpack:///./src/a.ts', 'webpack:///../../libs/x/src/b.ts'], names: [], mappings: 'AAAA;ACAA' };
  const fn = (functionName, startOffset, count) => ({ functionName, ranges: [{ startOffset, endOffset: startOffset + 14, count }] });
  const coverage = {
    result: [
      { url: 'file:///dist/apps/svc/main.js', functions: [fn('a', 0, 1), fn('b', 15, 0), fn('', 0, 3)] },
      { url: 'file:///elsewhere.js', functions: [fn('b', 15, 1)] },
    ],
  };
  const files = filesThatRan({ coverage, bundleUrl: 'file:///dist/apps/svc/main.js', bundleText, sourceMap, app: 'svc' });
  assert.deepEqual(
    [...files].map(([f, names]) => [f, [...names]]),
    [['apps/svc/src/a.ts', ['a']]],
  );
});

test("the compiler's re-export getters run no hand-written code and are not counted", () => {
  assert.equal(isReexportGetter('get', 'function () { return checksums_1.luhnValid; }'), true);
  assert.equal(isReexportGetter('get', 'function() { return m[k]; }'), true);
  // a getter someone wrote is code of its own
  assert.equal(isReexportGetter('get', 'function () { return this.pool.idle ? 0 : 1; }'), false);
  assert.equal(isReexportGetter('value', 'function () { return a_1.b; }'), false);

  const bundleText = 'function () { return a_1.b; }\nfunction c(){}\n';
  const sourceMap = { version: 3, sources: ['webpack:///../../libs/x/src/index.ts', 'webpack:///../../libs/x/src/c.ts'], names: [], mappings: 'AAAA;ACAA' };
  const ran = (functionName, startOffset, endOffset) => ({ functionName, ranges: [{ startOffset, endOffset, count: 1 }] });
  const coverage = { result: [{ url: 'file:///b.js', functions: [ran('get', 0, 29), ran('c', 30, 44)] }] };
  const files = filesThatRan({ coverage, bundleUrl: 'file:///b.js', bundleText, sourceMap, app: 'svc' });
  assert.deepEqual([...files.keys()], ['libs/x/src/c.ts']);
});
