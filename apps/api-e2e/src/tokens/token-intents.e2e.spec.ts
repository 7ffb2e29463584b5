/** Token intents (docs/token-intents.md): created by a public key, read and deleted by a private one, made into a token once. */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { VISA, api, createTenant, type TestTenant } from '@coffer/testing';

const CARD = { number: VISA, expiration_month: 12, expiration_year: 2030, cvc: '123' };
const DAY_MS = 24 * 60 * 60 * 1000;

describe('token intents', () => {
  let tenant: TestTenant;
  let db: Client;
  let frontend: { id: string; key: string }; // public: token-intent:create only
  let backend: { id: string; key: string }; // private: reads and deletes intents, creates and reads tokens
  let reader: string; // private: token-intent:read only (no token:create)

  beforeAll(async () => {
    tenant = await createTenant('token-intents');
    frontend = await tenant.app('public', { permissions: ['token-intent:create'] });
    backend = await tenant.app('private', {
      permissions: ['token-intent:read', 'token-intent:delete', 'token:create', 'token:read', 'token:use'],
    });
    reader = (await tenant.app('private', { permissions: ['token-intent:read'] })).key;
    db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
  });

  const createIntent = (body: unknown, key = frontend.key) => api('POST', '/token-intents', { key, body });

  it('a public key creates a card intent: 201 with the mirrored shape, card details, never the data', async () => {
    const before = Date.now();
    const res = await createIntent({ type: 'card', data: CARD });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      tenant_id: tenant.tenantId,
      type: 'card',
      fingerprint: expect.any(String),
      card: { bin: '42424242', last4: '4242', expiration_month: 12, expiration_year: 2030, brand: 'visa' },
      created_by: frontend.id,
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(res.text).not.toContain(VISA);
    expect(res.text).not.toContain('"123"');
    // 24 hours after its creation
    const created = Date.parse(res.body.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 5000);
    expect(Date.parse(res.body.expires_at) - created).toBe(DAY_MS);
  });

  it('a private key reads it (never the data) and deletes it; then it is gone', async () => {
    const intent = (await createIntent({ type: 'card', data: CARD })).body;
    const read = await api('GET', `/token-intents/${intent.id}`, { key: backend.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(intent);
    expect(read.text).not.toContain(VISA);
    expect((await api('DELETE', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(204);
    expect((await api('GET', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(404);
    expect((await api('DELETE', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(404);
    const converted = await api('POST', '/tokens', { key: backend.key, body: { token_intent_id: intent.id } });
    expect(converted.status).toBe(404);
  });

  it('card brands and short numbers; bank intents show the routing number and the last 4 of the account; other types neither', async () => {
    const amex = await createIntent({ type: 'card', data: { number: '378282246310005', expiration_month: 1, expiration_year: 2031 } });
    expect(amex.body.card).toEqual({ bin: '378282', last4: '0005', expiration_month: 1, expiration_year: 2031, brand: 'american-express' });
    const mc = await createIntent({ type: 'card', data: { number: '5555555555554444' } });
    expect(mc.body.card).toEqual({ bin: '55555555', last4: '4444', brand: 'mastercard' });
    const bank = await createIntent({ type: 'bank', data: { routing_number: '021000021', account_number: '1234567890' } });
    expect(bank.status).toBe(201);
    expect(bank.body.bank).toEqual({ routing_number: '021000021', account_number_last4: '7890' });
    expect(bank.text).not.toContain('1234567890');
    const ssn = await createIntent({ type: 'social_security_number', data: '123-45-6789' });
    expect(ssn.status).toBe(201);
    expect(ssn.body.card).toBeUndefined();
    expect(ssn.body.bank).toBeUndefined();
    expect(ssn.text).not.toContain('6789');
  });

  it('conversion: POST /tokens with token_intent_id makes the token (same fingerprint, caller’s mask and fields), once', async () => {
    const intent = (await createIntent({ type: 'card', data: CARD })).body;
    const token = await api('POST', '/tokens', {
      key: backend.key,
      body: { token_intent_id: intent.id, metadata: { customer: 'c-42' }, containers: ['/pci/low/'] },
    });
    expect(token.status).toBe(201);
    expect(token.body).toMatchObject({
      type: 'card',
      fingerprint: intent.fingerprint,
      containers: ['/pci/low/'],
      metadata: { customer: 'c-42' },
      created_by: backend.id,
    });
    // the create's reply is masked, as for any create
    expect(token.body.data).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 });
    expect(token.body.id).not.toBe(intent.id);
    // the token holds the intent's data
    const revealed = await api('GET', `/tokens/${token.body.id}`, { key: backend.key });
    expect(revealed.body.data).toEqual(CARD);
    // a token made from the same data without an intent has the same fingerprint
    const direct = await api('POST', '/tokens', { key: backend.key, body: { type: 'card', data: CARD } });
    expect(direct.body.fingerprint).toBe(intent.fingerprint);
    // once: the intent was consumed with the create (its data cleared), and a second conversion is a conflict
    expect((await api('GET', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(404);
    const again = await api('POST', '/tokens', { key: backend.key, body: { token_intent_id: intent.id } });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
    expect(again.body.detail).toBe('The token intent was already converted to a token');
    const marker = await db.query(`SELECT data_ciphertext, data_key_id, converted_at FROM token_intents WHERE tenant_id = $1 AND id = $2`, [
      tenant.tenantId,
      intent.id,
    ]);
    expect(marker.rows[0]).toMatchObject({ data_ciphertext: null, data_key_id: null, converted_at: expect.any(Date) });
    expect((await api('DELETE', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(404);
    // and the tenant holds exactly one token of the intent's conversion
    const rows = await db.query(`SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1 AND fingerprint = $2`, [tenant.tenantId, intent.fingerprint]);
    expect(rows.rows[0].n).toBe(2); // the conversion and the direct create
  });

  it('two concurrent conversions of one intent: one token, the other 409', async () => {
    const intent = (await createIntent({ type: 'social_security_number', data: '987-65-4321' })).body;
    const results = await Promise.all(
      [1, 2].map(() => api('POST', '/tokens', { key: backend.key, body: { type: 'social_security_number', token_intent_id: intent.id } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await db.query(`SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1 AND fingerprint = $2`, [tenant.tenantId, intent.fingerprint]);
    expect(rows.rows[0].n).toBe(1);
  });

  it('conversion is judged under the converting caller: without token:create it is refused and the intent stays', async () => {
    const intent = (await createIntent({ type: 'card', data: CARD })).body;
    // the route's permission: 403 at the gateway
    const noCreate = await api('POST', '/tokens', { key: reader, body: { token_intent_id: intent.id } });
    expect(noCreate.status).toBe(403);
    // token:create, but not in the target container: 403 from the access rules, nothing written
    const ruled = await tenant.app('private', {
      rules: [{ priority: 1, container: '/general/', transform: 'mask', permissions: ['token:create'] }],
    });
    const outside = await api('POST', '/tokens', { key: ruled.key, body: { token_intent_id: intent.id } });
    expect(outside.status).toBe(403);
    expect((await api('GET', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(200);
    // the same key may make it a token in a container its rules allow (type `card`, container chosen by the converter)
    const inside = await api('POST', '/tokens', { key: ruled.key, body: { token_intent_id: intent.id, containers: ['/general/cards/'] } });
    expect(inside.status).toBe(201);
    expect(inside.body.containers).toEqual(['/general/cards/']);
  });

  it('conversion refuses data beside the intent, another type, and a malformed id; the intent stays', async () => {
    const intent = (await createIntent({ type: 'card', data: CARD })).body;
    const withData = await api('POST', '/tokens', { key: backend.key, body: { token_intent_id: intent.id, type: 'card', data: CARD } });
    expect(withData.status).toBe(400);
    expect(Object.keys(withData.body.errors)).toEqual(['data']);
    const otherType = await api('POST', '/tokens', { key: backend.key, body: { token_intent_id: intent.id, type: 'card_number' } });
    expect(otherType.status).toBe(400);
    expect(otherType.body.errors.type).toEqual(["must be the token intent's type (card)"]);
    const notString = await api('POST', '/tokens', { key: backend.key, body: { token_intent_id: 42 } });
    expect(notString.status).toBe(400);
    expect(Object.keys(notString.body.errors)).toEqual(['token_intent_id']);
    for (const id of ['not-a-uuid', randomUUID()]) expect((await api('POST', '/tokens', { key: backend.key, body: { token_intent_id: id } })).status).toBe(404);
    expect((await api('GET', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(200);
  });

  it('POST /tokenize converts intents too: an object naming one becomes its token, once, and the call is all-or-nothing', async () => {
    const intent = (await createIntent({ type: 'card', data: CARD })).body;
    const res = await api('POST', '/tokenize', { key: backend.key, body: { card: { type: 'card', token_intent_id: intent.id }, note: 'x' } });
    expect(res.status).toBe(200);
    expect(res.body.card).toMatchObject({ type: 'card' });
    expect(typeof res.body.note).toBe('string');
    expect((await api('GET', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(404);
    // used again, alone or beside a good item: 409, and nothing of the call is written
    const other = (await createIntent({ type: 'card', data: CARD })).body;
    const again = await api('POST', '/tokenize', { key: backend.key, body: [{ token_intent_id: other.id }, { token_intent_id: intent.id }] });
    expect(again.status).toBe(409);
    expect((await api('GET', `/token-intents/${other.id}`, { key: backend.key })).status).toBe(200);
    const bad = await api('POST', '/tokenize', { key: backend.key, body: { card: { type: 'bank', token_intent_id: other.id } } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['card.type']);
  });

  it('an expired intent is 404 on read and conversion, and the expiry sweep deletes it', async () => {
    const intent = (await createIntent({ type: 'card', data: CARD })).body;
    await db.query(`UPDATE token_intents SET expires_at = now() - interval '1 second' WHERE tenant_id = $1 AND id = $2`, [tenant.tenantId, intent.id]);
    expect((await api('GET', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(404);
    expect((await api('POST', '/tokens', { key: backend.key, body: { token_intent_id: intent.id } })).status).toBe(404);
    expect((await api('DELETE', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(404);
    // the e2e system sweeps every second (TOKEN_SWEEP_INTERVAL_MS)
    let left = 1;
    for (let i = 0; i < 100 && left; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = (await db.query(`SELECT count(*)::int AS n FROM token_intents WHERE tenant_id = $1 AND id = $2`, [tenant.tenantId, intent.id])).rows[0].n;
    }
    expect(left).toBe(0);
  });

  it('a public key with token-intent:create may do nothing else with intents or tokens', async () => {
    const intent = (await createIntent({ type: 'card', data: CARD })).body;
    expect((await api('GET', `/token-intents/${intent.id}`, { key: frontend.key })).status).toBe(403);
    expect((await api('DELETE', `/token-intents/${intent.id}`, { key: frontend.key })).status).toBe(403);
    expect((await api('POST', '/tokens', { key: frontend.key, body: { token_intent_id: intent.id } })).status).toBe(403);
    expect((await api('POST', '/tokens', { key: frontend.key, body: { type: 'token', data: 'x' } })).status).toBe(403);
    expect((await api('GET', '/tokens', { key: frontend.key })).status).toBe(403);
    // the permission is refused where the mirrored service does not grant it: read and delete are private only
    const mk = tenant.managementKey;
    for (const permission of ['token-intent:read', 'token-intent:delete']) {
      const res = await api('POST', '/applications', { key: mk, body: { name: 'front', type: 'public', permissions: [permission] } });
      expect(res.status).toBe(400);
      expect(res.body.errors['permissions[0]']).toEqual(['is not allowed for public applications']);
    }
    const mgmt = await api('POST', '/applications', { key: mk, body: { name: 'mgmt', type: 'management', permissions: ['token-intent:create'] } });
    expect(mgmt.status).toBe(400);
    // a private key without token-intent:create may not create intents
    expect((await createIntent({ type: 'card', data: CARD }, reader)).status).toBe(403);
    // GET /permissions lists them with their application types
    const perms = await api('GET', '/permissions?application_type=public', { key: mk });
    expect(perms.body.map((p: { type: string }) => p.type)).toContain('token-intent:create');
    expect(perms.body.map((p: { type: string }) => p.type)).not.toContain('token-intent:read');
  });

  it('bad input is a 400 problem naming each field, and nothing is stored', async () => {
    const count = async () => (await db.query(`SELECT count(*)::int AS n FROM token_intents WHERE tenant_id = $1`, [tenant.tenantId])).rows[0].n as number;
    const before = await count();
    const cases: Array<[unknown, string[]]> = [
      [{ type: 'card', data: { number: '4242424242424241', expiration_month: 13 } }, ['data.number', 'data.expiration_month']],
      [{ type: 'car', data: CARD }, ['type']],
      [{ data: CARD }, ['type']],
      [{ type: 'card' }, ['data']],
      [{ type: 'card', data: null }, ['data']],
      [{ type: 'token', data: 'x'.repeat(300 * 1024) }, ['data']],
      [{ type: 7, data: 'x' }, ['type']],
    ];
    for (const [body, fields] of cases) {
      const res = await createIntent(body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
      expect(res.text).not.toContain('4242424242424241');
    }
    for (const body of [[], 'text', 42]) expect((await createIntent(body)).status).toBe(400);
    expect(await count()).toBe(before);
    // ids that name no intent: 404, never 500
    for (const id of ['nope', randomUUID(), 'a%00b']) {
      expect((await api('GET', `/token-intents/${id}`, { key: backend.key })).status).toBe(404);
      expect((await api('DELETE', `/token-intents/${id}`, { key: backend.key })).status).toBe(404);
    }
  });

  it('another tenant’s key finds nothing', async () => {
    const intent = (await createIntent({ type: 'card', data: CARD })).body;
    const other = await createTenant('token-intents-other');
    const otherKey = (await other.app('private', { permissions: ['token-intent:read', 'token-intent:delete', 'token:create'] })).key;
    expect((await api('GET', `/token-intents/${intent.id}`, { key: otherKey })).status).toBe(404);
    expect((await api('DELETE', `/token-intents/${intent.id}`, { key: otherKey })).status).toBe(404);
    expect((await api('POST', '/tokens', { key: otherKey, body: { token_intent_id: intent.id } })).status).toBe(404);
    expect((await api('GET', `/token-intents/${intent.id}`, { key: backend.key })).status).toBe(200);
  });

  it('create, read, delete and conversion are audited (never data); the data is stored encrypted only', async () => {
    const secretNumber = '4000056655665556';
    const intent = (await createIntent({ type: 'card', data: { number: secretNumber, expiration_month: 3, expiration_year: 2032 } })).body;
    await api('GET', `/token-intents/${intent.id}`, { key: backend.key });
    const gone = (await createIntent({ type: 'card', data: CARD })).body;
    await api('DELETE', `/token-intents/${gone.id}`, { key: backend.key });
    const token = await api('POST', '/tokens', { key: backend.key, body: { token_intent_id: intent.id } });
    expect(token.status).toBe(201);
    const mk = tenant.managementKey;
    const ops = async (id: string) =>
      ((await api('GET', `/logs?entity_type=token_intent&entity_id=${id}`, { key: mk })).body.data as Array<Record<string, string>>).map((l) => ({
        operation: l['operation'],
        actor_id: l['actor_id'],
        message: l['message'],
      }));
    expect((await ops(intent.id)).sort((a, b) => a.operation.localeCompare(b.operation))).toEqual([
      { operation: 'convert', actor_id: backend.id, message: 'Token intent converted' },
      { operation: 'create', actor_id: frontend.id, message: 'Token intent created' },
      { operation: 'read', actor_id: backend.id, message: 'Token intent read' },
    ]);
    expect((await ops(gone.id)).map((l) => l.operation).sort()).toEqual(['create', 'delete']);
    const types = await api('GET', '/logs/entity-types', { key: mk });
    expect(types.body).toContainEqual({ value: 'token_intent', display_name: 'Token intent' });

    const still = (await createIntent({ type: 'card', data: { number: '6011111111111117' } })).body;
    expect(still.card.brand).toBe('discover');
    const tables = await db.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
    for (const { tablename } of tables.rows) {
      const text = (await db.query(`SELECT t::text AS row FROM "${tablename}" t`)).rows.map((r) => r.row).join('\n');
      expect(text).not.toContain(secretNumber);
      expect(text).not.toContain('6011111111111117');
    }
  });

  it('SVC-IDEMPOTENCY-KEY: a repeated create answers the same intent; a repeated conversion the same token', async () => {
    const key = `ti-${randomUUID()}`;
    const first = await api('POST', '/token-intents', { key: frontend.key, body: { type: 'card', data: CARD }, headers: { 'SVC-IDEMPOTENCY-KEY': key } });
    const second = await api('POST', '/token-intents', { key: frontend.key, body: { type: 'card', data: CARD }, headers: { 'SVC-IDEMPOTENCY-KEY': key } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    const convertKey = `tc-${randomUUID()}`;
    const body = { token_intent_id: first.body.id };
    const made = await api('POST', '/tokens', { key: backend.key, body, headers: { 'SVC-IDEMPOTENCY-KEY': convertKey } });
    const repeat = await api('POST', '/tokens', { key: backend.key, body, headers: { 'SVC-IDEMPOTENCY-KEY': convertKey } });
    expect(made.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.body.id).toBe(made.body.id);
    expect(repeat.body.data).toEqual(made.body.data);
  });
});
