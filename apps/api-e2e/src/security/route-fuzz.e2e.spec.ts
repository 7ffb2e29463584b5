/**
 * Every route of the API reference, fed bodies, path ids and query values it does not expect: the answer is never a 5xx,
 * never a hang, and every 4xx is a problem document. The routes, their bodies and their query parameters come from the
 * reference the gateway serves (GET /docs/openapi.json), so a route added tomorrow is fuzzed without a line here.
 *
 * Each body is the route's documented example with one member (or one member of a member) replaced by a value of
 * another kind, or given keys JavaScript objects treat specially (`__proto__`, `constructor`, `toString`) or text that
 * is not Unicode; whole bodies of every JSON kind; path ids that are not ids, another tenant's, or unknown; query values
 * out of range or of the wrong kind; and pairs of members, a NUL in one before a reserved key or a lone surrogate in the
 * next. It found what hand-picked cases had not: a metadata key `constructor` (500), a merge patch naming `__proto__`
 * (500), an unpaired surrogate in an e-mail address (500), a NUL before a reserved key in another member (500).
 */
import { randomUUID } from 'node:crypto';
import { apiRaw, createTenant, type ApiResponse, type TestTenant } from '@coffer/testing';
import { MANAGEMENT_PERMISSIONS } from './access-model';

jest.setTimeout(300_000);

interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}
interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { example?: unknown; schema?: { $ref?: string; properties?: Record<string, unknown> } }> };
}

/** Values of every JSON kind, and strings that have broken parsers, templates and databases before. */
const ODD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  'x'.repeat(5000),
  '{{ data }}',
  '{{',
  "'; DROP TABLE tokens; --",
  '\u202e\ud83d\ude00',
  '\ud800',
  '2030-02-30T00:00:00Z',
  '../../etc/passwd',
  [],
  [null],
  [1, 'a', {}],
  {},
  { a: { b: [] } },
  ['x'.repeat(300)],
];
/** Keys a body's objects may be given (raw JSON text: an object literal cannot hold `__proto__` as data). */
const ODD_KEYS = ['toString', 'constructor', '__proto__', 'prototype', 'hasOwnProperty', '\\ud800'];
const ODD_QUERY_VALUES = ['', '-1', '0', '1e309', 'abc', '[]', '*', '%25', "'", '\\', 'x'.repeat(3000), '2030-13-45', 'true', '9'.repeat(30)];
/** Routes that are not the API's JSON (the proxy forwards any bytes; health answers anyone). */
const SKIPPED = (path: string) => path === '/proxy' || path.startsWith('/proxy/') || path === '/healthz' || path === '/readyz';
const TOKEN_ROUTE = /^\/(tokens|tokenize|detokenize|v2\/|token-intents|sessions\/authorize)|\/react|\/results\//;

describe('every route, fed what it does not expect', () => {
  let tenant: TestTenant;
  /** management keys taken in turn: each application has its own rate limit (200 a minute) */
  const managers: string[] = [];
  let privateKey: string;
  let publicKey: string;
  const ids: Record<string, string> = {};
  let turn = 0;

  beforeAll(async () => {
    tenant = await createTenant('route-fuzz');
    const mgmt = tenant.managementKey;
    for (let i = 0; i < 24; i++) managers.push((await tenant.app('management', { permissions: [...MANAGEMENT_PERMISSIONS] })).key);
    const privateApp = await tenant.app('private', {
      permissions: [
        'token:create',
        'token:read',
        'token:update',
        'token:delete',
        'token:use',
        'token:search',
        'token-intent:create',
        'token-intent:read',
        'token-intent:delete',
      ],
    });
    privateKey = privateApp.key;
    publicKey = (await tenant.app('public', { permissions: ['token:create', 'token-intent:create'] })).key;
    const seed = async (path: string, key: string, body: unknown) => {
      const res = await apiRaw('POST', path, { key, body });
      if (res.status >= 300) throw new Error(`seeding ${path}: ${res.status} ${res.text}`);
      return res.body.id as string;
    };
    ids['/applications/{id}'] = privateApp.id;
    ids['/tokens/{id}'] = await seed('/tokens', privateKey, { type: 'card', data: { number: '4242424242424242' } });
    ids['/token-intents/{id}'] = await seed('/token-intents', privateKey, { type: 'card', data: { number: '4242424242424242' } });
    ids['/reactor-formulas/{id}'] = await seed('/reactor-formulas', mgmt, {
      name: 'fuzzed',
      type: 'private',
      code: 'module.exports = async (req) => ({ raw: req.args })',
      configuration: [],
      request_parameters: [],
    });
    ids['/reactors/{id}'] = await seed('/reactors', mgmt, { name: 'fuzzed', formula: { id: ids['/reactor-formulas/{id}'] }, configuration: {} });
    ids['/webhooks/{id}'] = await seed('/webhooks', mgmt, { name: 'fuzzed', url: 'http://127.0.0.1:9/hook', events: ['token.created'] });
    ids['/proxies/{id}'] = await seed('/proxies', mgmt, { name: 'fuzzed', destination_url: 'https://example.com/' });
  });

  const keyFor = (path: string) => {
    if (path === '/sessions') return publicKey;
    if (TOKEN_ROUTE.test(path)) return privateKey;
    return managers[turn++ % managers.length];
  };

  it('answers every request with a 2xx, 3xx or a 4xx problem document: never a 5xx, never a hang', async () => {
    const doc = (await apiRaw<Doc>('GET', '/docs/openapi.json')).body;
    const requests = buildRequests(doc, ids);
    expect(requests.length).toBeGreaterThan(3000);
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < requests.length) {
          const r = requests[next++];
          const label = `${r.method} ${r.path.slice(0, 120)} ${r.label}`;
          let res: ApiResponse;
          try {
            res = await apiRaw(r.method, r.path, {
              key: keyFor(r.template),
              rawBody: r.body,
              contentType: r.contentType,
              headers: { 'svc-trace-id': 'route-fuzz' },
            });
          } catch (err) {
            failures.push(`${label}: ${(err as Error).message}`);
            continue;
          }
          const problem = res.status >= 400 && !(res.headers.get('content-type') ?? '').includes('application/problem+json');
          if (res.status >= 500 || res.status === 429 || problem) failures.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      }),
    );
    expect(failures).toEqual([]);
  });
});

interface FuzzRequest {
  method: string;
  template: string;
  path: string;
  body?: string;
  contentType?: string;
  label: string;
}

function buildRequests(doc: Doc, ids: Record<string, string>): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    if (SKIPPED(template)) continue;
    for (const [m, op] of Object.entries(methods)) {
      const method = m.toUpperCase();
      const [contentType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const example = content?.example;
      const known = Object.entries(ids).find(([prefix]) => template.startsWith(prefix))?.[1];
      const idsToTry = template.includes('{')
        ? ['not-a-uuid', randomUUID(), 'a'.repeat(500), '%C3%A9', '%20', '..', '00000000-0000-0000-0000-000000000000', ...(known ? [known] : [])]
        : [''];
      const fill = (id: string) => template.replace(/\{[^}]+\}/, id).replace(/\{[^}]+\}/g, randomUUID());
      const exampleText = example === undefined ? undefined : JSON.stringify(example);
      for (const id of idsToTry) {
        // the known resource is kept for the other requests: it is not deleted here
        if (method === 'DELETE' && id === known) continue;
        out.push({ method, template, path: fill(id), body: exampleText, contentType, label: `(id ${id.slice(0, 20)}, the example body)` });
      }
      if (method === 'DELETE') continue;
      const path = fill(known ?? idsToTry[idsToTry.length - 1]);
      for (const p of (op.parameters ?? []).filter((p) => p.in === 'query')) {
        for (const v of ODD_QUERY_VALUES) out.push({ method, template, path: `${path}?${p.name}=${encodeURIComponent(v)}`, label: '' });
        out.push({ method, template, path: `${path}?${p.name}=a&${p.name}=b`, label: '' });
      }
      if (!contentType) continue;
      const add = (body: string, label: string) => out.push({ method, template, path, body, contentType, label });
      for (const v of ODD_VALUES) add(JSON.stringify(v), `body ${JSON.stringify(v).slice(0, 40)}`);
      add('{"a":', 'body: bad JSON');
      add('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}', 'body: prototype keys');
      const base = example && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>) : {};
      const schema = content?.schema?.$ref ? doc.components.schemas[content.schema.$ref.split('/').pop() as string] : content?.schema;
      const members = [...new Set([...Object.keys(base), ...Object.keys(schema?.properties ?? {})])];
      // two members at once: a NUL (a field error, reported with the others) before a reserved key or a lone
      // surrogate in another member; the check of the JSON limits stopped at the NUL and let the rest through (a 500)
      members.forEach((first, i) => {
        const later = members[(i + 1) % members.length];
        if (later === first) return;
        for (const [what, value] of [
          ['{constructor}', { constructor: 'x', ok: 'y' }],
          ['a lone surrogate', 'a\ud800b'],
        ] as const) {
          const body: Record<string, unknown> = { [first]: 'a\u0000b' };
          for (const [k, v] of Object.entries(base)) if (k !== first && k !== later) body[k] = v;
          body[later] = value;
          add(JSON.stringify(body), `${first}=NUL, then ${later}=${what}`);
        }
      });
      for (const member of members) {
        for (const v of ODD_VALUES) add(JSON.stringify({ ...base, [member]: v }), `${member}=${JSON.stringify(v).slice(0, 40)}`);
        for (const k of ODD_KEYS) add(JSON.stringify({ ...base, [member]: '@@' }).replace('"@@"', `{"${k}":"x","ok":"y"}`), `${member}={${k}}`);
        const inner = base[member];
        if (inner === null || typeof inner !== 'object') continue;
        for (const k of Object.keys(inner)) {
          for (const v of ODD_VALUES) {
            const changed = Array.isArray(inner) ? Object.assign([...inner], { [k]: v }) : { ...inner, [k]: v };
            add(JSON.stringify({ ...base, [member]: changed }), `${member}.${k}=${JSON.stringify(v).slice(0, 40)}`);
          }
        }
      }
    }
  }
  return out;
}
