// docs/compatibility.md tells the truth about the SDKs: "supported" exactly when an end-to-end test drives the method
// through the SDK (compatibility.mjs). Run: node --test 'tools/docs/*.test.mjs'  (or: npx nx run docs:test)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compatibilityProblems, documentedMethods, rowMethods, versionProblems } from './compatibility.mjs';
import { drivenSdkMethods } from './sdk-calls.mjs';

test('docs/compatibility.md marks supported exactly the SDK methods the end-to-end tests drive', () => {
  assert.deepEqual(compatibilityProblems(), []);
});

test('the page names the SDK versions installed', () => {
  assert.deepEqual(versionProblems(), []);
  assert.equal(versionProblems('## @basis-theory/node-sdk 0.0.1\n').length, 1);
});

test('the page lists every method of the installed node SDK, and none it lacks', () => {
  const page = [
    '## @basis-theory/node-sdk 5.7.0',
    '| `tokens.*` | | not supported | |',
    '| `tokens.nope` | | not supported | |',
    '## @basis-theory/basis-theory-js 4.30.2',
  ].join('\n');
  const problems = compatibilityProblems(documentedMethods(page), { node: new Map(), js: new Map() }, { node: new Set(['tokens.create', 'reactors.get']) });
  assert.deepEqual(
    problems.filter((p) => !p.includes('no method table')),
    [
      'docs/compatibility.md: node SDK reactors.get is a method of the SDK the page does not list',
      'docs/compatibility.md:3: node SDK has no method tokens.nope',
    ],
  );
});

test('a row names its methods: shared prefixes, slash alternatives, wildcards', () => {
  assert.deepEqual(rowMethods('`tokens.create`'), ['tokens.create']);
  assert.deepEqual(rowMethods('`reactorFormulas.retrieve`, `update`, `delete`'), [
    'reactorFormulas.retrieve',
    'reactorFormulas.update',
    'reactorFormulas.delete',
  ]);
  assert.deepEqual(rowMethods('`proxy.get/put`'), ['proxy.get', 'proxy.put']);
  assert.deepEqual(rowMethods('`keys.*` (client encryption keys)'), ['keys.*']);
  assert.deepEqual(rowMethods('`tokenize`'), ['tokenize']);
});

test('the check fails both ways: supported but not driven, driven but not supported, driven but not listed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-compat-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'a.e2e.spec.ts'),
      [
        'let mgmt: BasisTheoryClient;',
        'mgmt = nodeSdk(key);',
        'await mgmt.tokens.create({ type: "token" });',
        'await nodeSdk(other).webhooks.ping();',
        '// mgmt.tokens.delete(id) is only named in a comment',
        'const bt = await btJs(key);',
        'await bt.proxy.post({ path: "x" });',
      ].join('\n'),
    );
    const driven = drivenSdkMethods(dir);
    assert.deepEqual([...driven.node.keys()].sort(), ['tokens.create', 'webhooks.ping']);
    assert.deepEqual([...driven.js.keys()], ['proxy.post']);
    const page = [
      '## @basis-theory/node-sdk 5.7.0',
      '| method | HTTP | status | notes |',
      '|---|---|---|---|',
      '| `tokens.create` | `POST /tokens` | supported | |',
      '| `tokens.delete` | `DELETE /tokens/{id}` | supported | |',
      '## @basis-theory/basis-theory-js 4.30.2',
      '| method | HTTP | status | notes |',
      '| `proxies.*`, `proxy.get/post` | `/proxy` | not supported | |',
    ].join('\n');
    const problems = compatibilityProblems(documentedMethods(page), driven, {});
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems.join('\n'), /tokens\.delete is marked supported, but no end-to-end test calls it/);
    assert.match(problems.join('\n'), /webhooks\.ping is driven by .* but not listed/);
    assert.match(problems.join('\n'), /proxy\.post is marked not supported, but .* drives it/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
