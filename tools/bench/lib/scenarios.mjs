// The scenarios: what one request of each looks like, and the data each needs, created through the API first.
// Every scenario's op checks the status it expects (http.mjs), so errors show in the report's error column.
import { randomUUID } from 'node:crypto';

const VISA = '4242424242424242';
const q = (params) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/** Applications, reactors and 200 cards (customers c-0 … c-19) for the scenarios. */
export async function prepare(call, managementKey) {
  const app = (type, permissions) => call('POST', '/applications', { key: managementKey, body: { name: `bench ${type}`, type, permissions } });
  const key = (await app('private', ['token:create', 'token:read', 'token:use', 'token:search'])).key;
  const publicKey = (await app('public', ['token:create'])).key;
  // a checkout page's key for card entry: it may only make token intents
  const intentKey = (await app('public', ['token-intent:create'])).key;
  // their own key and tokens: the updates change neither the cards nor the metadata the lists filter on
  const updateKey = (await app('private', ['token:update'])).key;
  const updatable = (
    await call('POST', '/tokenize', { key, body: Array.from({ length: 50 }, (_, i) => ({ type: 'token', data: `u-${i}`, metadata: { bench: 'update' } })) })
  ).map((t) => t.id);
  const cards = [];
  for (let batch = 0; batch < 2; batch++) {
    const body = Array.from({ length: 100 }, (_, i) => ({
      type: 'card',
      data: { number: VISA, expiration_month: 12, expiration_year: 2031 },
      metadata: { customer: `c-${(batch * 100 + i) % 20}`, bench: 'seed' },
    }));
    cards.push(...(await call('POST', '/tokenize', { key, body })).map((t) => t.id));
  }
  const reactor = async (name, code, params = []) => {
    const f = await call('POST', '/reactor-formulas', { key: managementKey, body: { name, type: 'private', code, request_parameters: params } });
    return (await call('POST', '/reactors', { key: managementKey, body: { name, configuration: {}, formula: { id: f.id } } })).id;
  };
  const trivial = await reactor('bench trivial', 'module.exports = async function () { return { raw: { ok: true } }; };');
  const detokenizing = await reactor(
    'bench detokenize',
    'module.exports = async function (req) { return { raw: { last4: req.args.card.number.slice(-4) } }; };',
    [{ name: 'card.number', type: 'string' }],
  );
  // cursors of a second page, so the cursor scenarios measure a continued walk (cursors are stateless and reusable)
  const v2ListFirst = `/v2/tokens?${q({ metadata: JSON.stringify({ customer: 'c-7' }), size: 4 })}`;
  const v2ListCursor = (await call('GET', v2ListFirst, { key })).pagination.next;
  const v2SearchBody = { query: 'metadata.customer:c-7', size: 4 };
  const v2SearchCursor = (await call('POST', '/v2/tokens/search', { key, body: v2SearchBody })).pagination.next;
  if (!v2ListCursor || !v2SearchCursor) throw new Error('the seeded cards did not give a second v2 page');
  return { key, publicKey, intentKey, updateKey, updatable, cards, trivial, detokenizing, v2ListFirst, v2ListCursor, v2SearchBody, v2SearchCursor };
}

/** The list, search and cursor requests measured again as the tenant grows (scale.mjs). */
export function listScenarios(call, d) {
  return [
    { name: 'GET /tokens metadata filter', op: () => call('GET', '/tokens?metadata.customer=c-7&size=20', { key: d.key }) },
    { name: 'POST /tokens/search (v1)', op: () => call('POST', '/tokens/search', { key: d.key, body: { query: 'metadata.customer:c-7', size: 20 } }) },
    { name: 'GET /v2/tokens metadata, page 1', op: () => call('GET', d.v2ListFirst, { key: d.key }) },
    { name: 'GET /v2/tokens next page (cursor)', op: () => call('GET', `${d.v2ListFirst}&start=${encodeURIComponent(d.v2ListCursor)}`, { key: d.key }) },
    { name: 'POST /v2/tokens/search, page 1', op: () => call('POST', '/v2/tokens/search', { key: d.key, body: d.v2SearchBody }) },
    {
      name: 'POST /v2/tokens/search cursor',
      op: () => call('POST', '/v2/tokens/search', { key: d.key, body: { ...d.v2SearchBody, start: d.v2SearchCursor } }),
    },
  ];
}

/** One card created (201): the create of the request scenarios and of the scale points. */
const createCard = (call, d) => (_c, seq) =>
  call('POST', '/tokens', {
    key: d.key,
    body: { type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2031 }, metadata: { customer: `x-${seq % 50}` } },
    expect: 201,
  });

/** The same create as a client that retries safely sends it: with an idempotency key of its own (recorded with the token). */
const createCardOnce = (call, d) => (_c, seq) =>
  call('POST', '/tokens', {
    key: d.key,
    headers: { 'svc-idempotency-key': randomUUID() },
    body: { type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2031 }, metadata: { customer: `x-${seq % 50}` } },
    expect: 201,
  });

/** One seeded card read (revealed, so decrypted and audited), picked at random (issue 35: random ids). */
const readRandomCard = (call, d) => () => call('GET', `/tokens/${d.cards[Math.floor(Math.random() * d.cards.length)]}`, { key: d.key });

/** The scale points' requests: the lists, searches and cursors, a read and a create (issue 35, goal 5). */
export function scaleScenarios(call, d) {
  return [...listScenarios(call, d), { name: 'GET /tokens/{id}', op: readRandomCard(call, d) }, { name: 'POST /tokens (card)', op: createCard(call, d) }];
}

/** The request scenarios; `baseline` names the in-run baseline whose throughput the ratio column divides by. */
export function requestScenarios(call, d) {
  const card = (seq) => d.cards[seq % d.cards.length];
  return [
    { name: 'GET /healthz (gateway)', baseline: 'floor', op: () => call('GET', '/healthz') },
    // authenticated from the principal cache, no bus: the gateway's part of every API request (goals: loneReadHops)
    { name: 'GET /ping (gateway, authenticated)', baseline: 'floor', op: () => call('GET', '/ping', { key: d.key, expect: 204 }) },
    { name: 'POST /tokens (card)', baseline: 'insert', op: createCard(call, d) },
    { name: 'POST /tokens (card, idempotency key)', baseline: 'insert', op: createCardOnce(call, d) },
    { name: 'GET /tokens/{id}', baseline: 'select', op: readRandomCard(call, d) },
    ...listScenarios(call, d).map((s) => ({ ...s, baseline: 'select' })),
    {
      name: 'POST /tokenize (10 values)',
      baseline: 'insert',
      op: (_c, seq) =>
        call('POST', '/tokenize', {
          key: d.key,
          body: Array.from({ length: 10 }, (_, i) => ({ type: 'token', data: `v-${seq}-${i}`, metadata: { bench: 'tokenize' } })),
        }),
    },
    {
      // an audited change of a stored token: the row, its search digests, its event and its audit record in one transaction
      name: 'PATCH /tokens/{id}',
      baseline: 'insert',
      op: (_c, seq) =>
        call('PATCH', `/tokens/${d.updatable[seq % d.updatable.length]}`, {
          key: d.updateKey,
          contentType: 'application/merge-patch+json',
          body: { metadata: { n: String(seq) } },
        }),
    },
    { name: 'POST /detokenize (1 card)', baseline: 'select', op: (_c, seq) => call('POST', '/detokenize', { key: d.key, body: { v: `{{ ${card(seq)} }}` } }) },
    {
      name: 'POST /sessions + authorize',
      baseline: 'insert',
      op: async () => {
        const s = await call('POST', '/sessions', { key: d.publicKey, expect: 201 });
        await call('POST', '/sessions/authorize', { key: d.key, body: { nonce: s.nonce, permissions: ['token:create'] }, expect: 200 });
      },
    },
    {
      // a checkout page's visit: its session, authorized by the backend, then the browser's first call with the new key,
      // which no gateway has seen yet (session-service resolves it)
      name: 'session: create, authorize, first use',
      baseline: 'insert',
      op: async () => {
        const s = await call('POST', '/sessions', { key: d.publicKey, expect: 201 });
        await call('POST', '/sessions/authorize', { key: d.key, body: { nonce: s.nonce, permissions: ['token:create'] }, expect: 200 });
        await call('GET', '/ping', { key: s.session_key, expect: 204 });
      },
    },
    {
      // the card a checkout page sends, before the backend converts it into a token
      name: 'POST /token-intents (card)',
      baseline: 'insert',
      op: () =>
        call('POST', '/token-intents', {
          key: d.intentKey,
          body: { type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2031 } },
          expect: 201,
        }),
    },
    { name: 'react: trivial formula', baseline: 'select', op: () => call('POST', `/reactors/${d.trivial}/react`, { key: d.key, body: {} }) },
    {
      name: 'react: detokenize 1 card',
      baseline: 'select',
      op: (_c, seq) => call('POST', `/reactors/${d.detokenizing}/react`, { key: d.key, body: { args: { card: `{{ ${card(seq)} }}` } } }),
    },
    // the accepted jobs run afterwards: run.mjs waits for that backlog before the next measurement (`drains`)
    {
      name: 'POST react-async (accept)',
      baseline: 'insert',
      drains: 'reactor_jobs',
      op: () => call('POST', `/reactors/${d.trivial}/react-async`, { key: d.key, body: {}, expect: 202 }),
    },
  ];
}
