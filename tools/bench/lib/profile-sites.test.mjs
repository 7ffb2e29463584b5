import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selfTimeBySite, siteOf } from './profile-sites.mjs';

const frame = (url, functionName = 'f', lineNumber = 0, columnNumber = 0) => ({ url, functionName, lineNumber, columnNumber, scriptId: '1' });

test('a function is placed in its package, in Node, or in what V8 names without a script', () => {
  const ctx = { bundleUrl: 'file:///dist/main.js', map: undefined, app: 'gateway' };
  assert.equal(siteOf(frame('file:///r/node_modules/@nestjs/core/x.js'), ctx), '@nestjs/core');
  assert.equal(siteOf(frame('file:///r/node_modules/pg/lib/client.js'), ctx), 'pg');
  assert.equal(siteOf(frame('node:internal/streams/readable'), ctx), 'node:internal');
  assert.equal(siteOf(frame('', 'writeBuffer'), ctx), '(writeBuffer)');
  assert.equal(siteOf(frame('', '(garbage collector)'), ctx), '(garbage collector)');
  assert.equal(siteOf(frame('', '(idle)'), ctx), '(idle)');
});

test('a bundle function is placed in its source file through the source map', () => {
  // one mapping: line 0, column 0 of the bundle comes from webpack:///./src/main.ts
  const sourceMap = { version: 3, sources: ['webpack:///./src/main.ts', 'webpack:///../../node_modules/tslib/tslib.es6.js'], names: [], mappings: 'AAAA;ACAA' };
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('', '(root)') },
      { id: 2, callFrame: frame('file:///dist/main.js', 'handler', 0, 0) },
      { id: 3, callFrame: frame('file:///dist/main.js', '__awaiter', 1, 0) },
      { id: 4, callFrame: frame('', '(idle)') },
    ],
    samples: [2, 2, 3, 4, 4],
    timeDeltas: [1000, 1000, 500, 3000, 3000],
  };
  const out = selfTimeBySite(profile, { bundleUrl: 'file:///dist/main.js', sourceMap, app: 'gateway' });
  assert.equal(out.idleMs, 6);
  assert.equal(out.busyMs, 2.5);
  assert.deepEqual(out.sites, [
    { site: 'apps/gateway/src/main.ts', ms: 2 },
    { site: 'tslib', ms: 0.5 },
  ]);
});
