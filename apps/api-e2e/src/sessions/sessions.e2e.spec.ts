import { VISA, api, createTenant, type TestTenant } from '@coffer/testing';

describe('sessions', () => {
  let tenant: TestTenant;
  let pub: string;
  let priv: string;
  beforeAll(async () => {
    tenant = await createTenant('sessions');
    pub = (await tenant.app('public', { permissions: ['token:create'] })).key;
    priv = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:update', 'token:use'] })).key;
  });

  const newSession = async () => {
    const res = await api('POST', '/sessions', { key: pub });
    expect(res.status).toBe(201);
    return res.body as { session_key: string; nonce: string; expires_at: string };
  };

  it('a public key creates a session that expires 3 minutes later; other keys get 403', async () => {
    const before = Date.now();
    const s = await newSession();
    expect(s.session_key).toEqual(expect.any(String));
    expect(s.nonce).toEqual(expect.any(String));
    const ttl = Date.parse(s.expires_at) - before;
    expect(ttl).toBeGreaterThan(170_000);
    expect(ttl).toBeLessThan(190_000);
    expect((await api('POST', '/sessions', { key: priv })).status).toBe(403);
    expect((await api('POST', '/sessions', { key: tenant.managementKey })).status).toBe(403);
    expect((await api('POST', '/sessions')).status).toBe(401);
  });

  it('an unauthorized session authenticates but may do nothing (403)', async () => {
    const s = await newSession();
    expect((await api('POST', '/tokens', { key: s.session_key, body: { type: 'token', data: 'x' } })).status).toBe(403);
    expect((await api('GET', '/tokens', { key: s.session_key })).status).toBe(403);
    expect((await api('POST', '/sessions', { key: s.session_key })).status).toBe(403);
  });

  it('authorize: private key only, nonce single use, grants take effect at once', async () => {
    const s = await newSession();
    expect((await api('POST', '/sessions/authorize', { key: pub, body: { nonce: s.nonce, permissions: ['token:create'] } })).status).toBe(403);
    expect((await api('POST', '/sessions/authorize', { key: priv, body: { nonce: 'nonce_unknown', permissions: ['token:create'] } })).status).toBe(404);
    expect((await api('POST', '/sessions/authorize', { key: priv, body: { nonce: s.nonce } })).status).toBe(400);
    expect((await api('POST', '/sessions/authorize', { key: priv, body: { nonce: s.nonce, permissions: ['token:delete'] } })).status).toBe(400);
    expect((await api('POST', '/sessions/authorize', { key: priv, body: { nonce: s.nonce, permissions: ['application:read'] } })).status).toBe(400);
    // the session key was used (and cached) before authorization: authorization must still apply at once
    expect((await api('POST', '/tokens', { key: s.session_key, body: { type: 'token', data: 'x' } })).status).toBe(403);
    const ok = await api('POST', '/sessions/authorize', { key: priv, body: { nonce: s.nonce, permissions: ['token:create'] } });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('');
    expect((await api('POST', '/sessions/authorize', { key: priv, body: { nonce: s.nonce, permissions: ['token:create'] } })).status).toBe(409);
    const created = await api('POST', '/tokens', { key: s.session_key, body: { type: 'card_number', data: VISA } });
    expect(created.status).toBe(201);
    expect(created.body.data).toBe('XXXXXXXXXXXX4242');
    expect(created.body.tenant_id).toBe(tenant.tenantId);
    expect((await api('GET', `/tokens/${created.body.id}`, { key: s.session_key })).status).toBe(403);
    expect((await api('GET', `/tokens/${created.body.id}`, { key: priv })).body.data).toBe(VISA);
  });

  it('authorize with rules and conditions on token id', async () => {
    const t = await api('POST', '/tokens', { key: priv, body: { type: 'card_number', data: VISA } });
    const s = await newSession();
    const res = await api('POST', '/sessions/authorize', {
      key: priv,
      body: {
        nonce: s.nonce,
        rules: [
          {
            description: 'this card only',
            priority: 1,
            conditions: [{ attribute: 'id', operator: 'equals', value: t.body.id }],
            transform: 'reveal',
            permissions: ['token:read'],
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    const read = await api('GET', `/tokens/${t.body.id}`, { key: s.session_key });
    expect(read.status).toBe(200);
    expect(read.body.data).toBe(VISA);
    const other = await api('POST', '/tokens', { key: priv, body: { type: 'card_number', data: VISA } });
    expect((await api('GET', `/tokens/${other.body.id}`, { key: s.session_key })).status).toBe(403);
    const list = await api('GET', '/tokens?size=100', { key: s.session_key });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([t.body.id]);
  });

  it('expires_at at authorization: future and at most 24 h; an expired session is 401 at once', async () => {
    const s = await newSession();
    const past = await api('POST', '/sessions/authorize', {
      key: priv,
      body: { nonce: s.nonce, permissions: ['token:create'], expires_at: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
    const far = await api('POST', '/sessions/authorize', {
      key: priv,
      body: { nonce: s.nonce, permissions: ['token:create'], expires_at: new Date(Date.now() + 25 * 3600_000).toISOString() },
    });
    expect(far.status).toBe(400);
    const ok = await api('POST', '/sessions/authorize', {
      key: priv,
      body: { nonce: s.nonce, permissions: ['token:create'], expires_at: new Date(Date.now() + 1500).toISOString() },
    });
    expect(ok.status).toBe(200);
    expect((await api('POST', '/tokens', { key: s.session_key, body: { type: 'token', data: 'x' } })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await api('POST', '/tokens', { key: s.session_key, body: { type: 'token', data: 'x' } })).status).toBe(401);
  });

  it('a session of another tenant cannot be authorized here (404)', async () => {
    const other = await createTenant('sessions-other');
    const otherPriv = (await other.app('private', { permissions: ['token:create'] })).key;
    const s = await newSession();
    expect((await api('POST', '/sessions/authorize', { key: otherPriv, body: { nonce: s.nonce, permissions: ['token:create'] } })).status).toBe(404);
  });
});
