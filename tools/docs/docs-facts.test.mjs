// The facts the docs repeat agree with the code: the Node version (.node-version), the services tools/dev/system.mjs
// runs, the environment variables the configuration parsers read (and their integer defaults and ranges), the RFC
// cited for problem documents, and the routes docs/api-reference.md lists (docs/openapi.json).
// Run: node --test 'tools/docs/*.test.mjs'  (or: npx nx run docs:test)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NODE_VERSION, nodeVersionProblems, obsoleteRfcProblems, serviceListProblems } from './drift-facts.mjs';
import { documentedVariables, envTableProblems } from './env-tables.mjs';
import { apiRouteProblems, documentedRoutes } from './api-routes.mjs';
import { envDefaultProblems } from './env-defaults.mjs';

test('every Node version the docs name is the pinned one (.node-version), or listed as about something else', () => {
  assert.deepEqual(nodeVersionProblems(), []);
});

test('the docs count and list the services tools/dev/system.mjs runs', () => {
  assert.deepEqual(serviceListProblems(), []);
});

test('every variable a configuration parser reads is in a variable table of the docs, and every one documented is read', () => {
  assert.deepEqual(envTableProblems(), []);
});

test('the integer settings the docs document have the defaults and ranges of their parsers', () => {
  assert.deepEqual(envDefaultProblems(), []);
  const settings = new Map([['AUTH_CACHE_TTL_MS', { def: 5000, min: 1, max: 3600000 }]]);
  const page = [{ file: 'docs/x.md', text: '| variable | type, range | default |\n|---|---|---|\n| `AUTH_CACHE_TTL_MS` | integer 0–3600000 | `1000` |' }];
  assert.deepEqual(envDefaultProblems(page, settings), [
    'docs/x.md:3: AUTH_CACHE_TTL_MS defaults to 5000 in its parser, not 1000',
    'docs/x.md:3: AUTH_CACHE_TTL_MS accepts 1–3600000 in its parser, not 0–3600000',
  ]);
});

test('the docs cite RFC 9457 for problem documents, not the obsoleted RFC 7807', () => {
  assert.deepEqual(obsoleteRfcProblems(), []);
});

test('the checks catch drift', () => {
  const [major, minor] = NODE_VERSION.split('.');
  const page = (text) => [{ file: 'docs/x.md', text }];
  assert.deepEqual(
    nodeVersionProblems(page(`Needs Node ${major}.${minor} or Node.js ${major}.`)).filter((p) => p.startsWith('docs/x.md')),
    [],
  );
  assert.equal(nodeVersionProblems(page('Needs Node.js 20.19 or later.')).filter((p) => p.startsWith('docs/x.md')).length, 1);

  const apps = ['gateway', 'token-service', 'session-service', 'reactor-service', 'webhook-dispatcher', 'proxy-service'];
  const services = (text) => serviceListProblems(page(text), apps).filter((p) => p.startsWith('docs/x.md'));
  assert.equal(services('runs the five services').length, 1);
  assert.equal(services('runs the six services').length, 0);
  assert.equal(services('Every service (gateway, token-service, session-service, reactor-service, webhook-dispatcher):').length, 1);

  const documented = documentedVariables([
    {
      file: 'docs/x.md',
      text: '| variable | default |\n|---|---|\n| `PORT` / `HEALTH_PORT` | 8080 |\n| `GONE_SETTING` | 1 |\n\n| method | path |\n| `GET` | / |',
    },
  ]);
  assert.deepEqual([...documented.keys()], ['PORT', 'HEALTH_PORT', 'GONE_SETTING']);
  const reads = (names) => new Map(names.map((n) => [n, new Set(['apps/x/src/config.ts'])]));
  const problems = envTableProblems(documented, reads(['PORT', 'HEALTH_PORT', 'NEW_SETTING', 'SERVICE_NAME']), new Map()).filter(
    (p) => !p.startsWith('NOT_CONFIGURATION'),
  );
  assert.deepEqual(problems, [
    'NEW_SETTING is read by apps/x/src/config.ts but no table in docs/ or README.md documents it',
    'GONE_SETTING is documented (docs/x.md:4) but nothing reads it',
  ]);

  assert.equal(obsoleteRfcProblems(page('Errors are RFC 7807 problem documents.')).length, 1);
});

test('docs/api-reference.md lists every route of docs/openapi.json, and only those', () => {
  assert.deepEqual(apiRouteProblems(), []);
  const served = new Set(['GET /tokens/{id}', 'POST /proxy', 'POST /proxy/{path}']);
  const page = '| `GET` | `/tokens/{id}` | x |\n| any of 5 | `/proxy`, `/proxy/**` | y |\n`DELETE /gone` is named here';
  assert.deepEqual(apiRouteProblems(served, documentedRoutes(page)).sort(), [
    'docs/api-reference.md:2: DELETE /proxy is not a route of docs/openapi.json',
    'docs/api-reference.md:2: DELETE /proxy/{path} is not a route of docs/openapi.json',
    'docs/api-reference.md:2: GET /proxy is not a route of docs/openapi.json',
    'docs/api-reference.md:2: GET /proxy/{path} is not a route of docs/openapi.json',
    'docs/api-reference.md:2: PATCH /proxy is not a route of docs/openapi.json',
    'docs/api-reference.md:2: PATCH /proxy/{path} is not a route of docs/openapi.json',
    'docs/api-reference.md:2: PUT /proxy is not a route of docs/openapi.json',
    'docs/api-reference.md:2: PUT /proxy/{path} is not a route of docs/openapi.json',
    'docs/api-reference.md:3: DELETE /gone is not a route of docs/openapi.json',
  ]);
});
