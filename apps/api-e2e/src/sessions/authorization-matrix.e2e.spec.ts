import { VISA, api, createTenant, type TestTenant } from '@coffer/testing';

/**
 * Every token route × every kind of caller, asserting the status and the exact shape of `data`.
 * Fixtures: a card in /pci/high/, a masked token in /general/high/, an SSN in /pii/high/, a bank account in /bank/high/.
 */
type Shape = 'reveal' | 'mask' | 'redact';
const FIXTURES = {
  card: {
    type: 'card',
    data: { number: VISA, expiration_month: 4, expiration_year: 2032 },
    revealed: { number: VISA, expiration_month: 4, expiration_year: 2032 },
    masked: { number: 'XXXXXXXXXXXX4242', expiration_month: 4, expiration_year: 2032 },
  },
  general: { type: 'token', data: 'general-secret', mask: '{{ data | reveal_last: 3 }}', revealed: 'general-secret', masked: 'XXXXXXX-XXXret' },
  ssn: { type: 'social_security_number', data: '123-45-6789', revealed: '123-45-6789', masked: 'XXX-XX-6789' },
  bank: { type: 'us_bank_account_number', data: '000123456789', revealed: '000123456789', masked: 'XXXXXXXX6789' },
} as const;
type Fixture = keyof typeof FIXTURES;

describe('authorization matrix', () => {
  let tenant: TestTenant;
  let owner: string;
  const ids = {} as Record<Fixture, string>;
  const callers: Record<string, string> = {};

  beforeAll(async () => {
    tenant = await createTenant('matrix');
    owner = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use', 'token:update', 'token:delete', 'token:search'] })).key;
    for (const [name, f] of Object.entries(FIXTURES)) {
      const res = await api('POST', '/tokens', { key: owner, body: { type: f.type, data: f.data, ...('mask' in f ? { mask: f.mask } : {}) } });
      ids[name as Fixture] = res.body.id;
    }
    callers['public'] = (await tenant.app('public', { permissions: ['token:create', 'token:update'] })).key;
    callers['private-mask'] = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:update', 'token:search'] })).key;
    callers['private-reveal'] = (await tenant.app('private', { permissions: ['token:read', 'token:use', 'token:search'] })).key;
    callers['private-rules'] = (
      await tenant.app('private', {
        rules: [
          { description: 'cards', priority: 1, container: '/pci/', transform: 'reveal', permissions: ['token:read', 'token:use', 'token:search'] },
          { description: 'general', priority: 2, container: '/general/', transform: 'mask', permissions: ['token:read', 'token:search'] },
          { description: 'pii', priority: 3, container: '/pii/', transform: 'redact', permissions: ['token:read', 'token:search'] },
        ],
      })
    ).key;
    callers['management'] = tenant.managementKey;
    const pending = await api('POST', '/sessions', { key: callers['public'] });
    callers['session-pending'] = pending.body.session_key;
    const authorized = await api('POST', '/sessions', { key: callers['public'] });
    await api('POST', '/sessions/authorize', { key: owner, body: { nonce: authorized.body.nonce, permissions: ['token:read'] } });
    callers['session-authorized'] = authorized.body.session_key;
    const expiring = await api('POST', '/sessions', { key: callers['public'] });
    await api('POST', '/sessions/authorize', {
      key: owner,
      body: { nonce: expiring.body.nonce, permissions: ['token:read'], expires_at: new Date(Date.now() + 1000).toISOString() },
    });
    callers['session-expired'] = expiring.body.session_key;
    const other = await createTenant('matrix-other');
    callers['other-tenant'] = (
      await other.app('private', { permissions: ['token:create', 'token:read', 'token:use', 'token:update', 'token:delete', 'token:search'] })
    ).key;
    await new Promise((r) => setTimeout(r, 1200));
  });

  // GET /tokens/{id}: status, and the shape of data (undefined = key absent)
  const readMatrix: Record<string, Record<Fixture, [number, Shape?]>> = {
    public: { card: [403], general: [403], ssn: [403], bank: [403] },
    'private-mask': { card: [200, 'mask'], general: [200, 'mask'], ssn: [200, 'mask'], bank: [200, 'mask'] },
    'private-reveal': { card: [200, 'reveal'], general: [200, 'reveal'], ssn: [200, 'reveal'], bank: [200, 'reveal'] },
    'private-rules': { card: [200, 'reveal'], general: [200, 'mask'], ssn: [200, 'redact'], bank: [403] },
    management: { card: [403], general: [403], ssn: [403], bank: [403] },
    'session-pending': { card: [403], general: [403], ssn: [403], bank: [403] },
    'session-authorized': { card: [200, 'mask'], general: [200, 'mask'], ssn: [200, 'mask'], bank: [200, 'mask'] },
    'session-expired': { card: [401], general: [401], ssn: [401], bank: [401] },
    'other-tenant': { card: [404], general: [404], ssn: [404], bank: [404] },
  };

  for (const [caller, row] of Object.entries(readMatrix)) {
    for (const [fixture, [status, shape]] of Object.entries(row) as Array<[Fixture, [number, Shape?]]>) {
      it(`GET /tokens/{${fixture}} as ${caller} → ${status}${shape ? ` ${shape}` : ''}`, async () => {
        const res = await api('GET', `/tokens/${ids[fixture]}`, { key: callers[caller] });
        expect(res.status).toBe(status);
        if (status !== 200) return expect(res.body.status).toBe(status);
        const f = FIXTURES[fixture];
        if (shape === 'reveal') expect(res.body.data).toEqual(f.revealed);
        if (shape === 'mask') expect(res.body.data).toEqual(f.masked);
        if (shape === 'redact') expect('data' in res.body).toBe(false);
      });
    }
  }

  const listed: Record<string, [number, Fixture[]]> = {
    public: [403, []],
    'private-mask': [200, ['card', 'general', 'ssn', 'bank']],
    'private-rules': [200, ['card', 'general', 'ssn']],
    management: [403, []],
    'session-pending': [403, []],
    'session-authorized': [200, ['card', 'general', 'ssn', 'bank']],
    'session-expired': [401, []],
    'other-tenant': [200, []],
  };
  for (const [caller, [status, fixtures]] of Object.entries(listed)) {
    it(`GET /tokens as ${caller} → ${status} listing ${fixtures.join(', ') || 'nothing of ours'}`, async () => {
      const res = await api('GET', '/tokens?size=100', { key: callers[caller] });
      expect(res.status).toBe(status);
      if (status === 200) {
        const got = res.body.data
          .map((t: { id: string }) => t.id)
          .filter((id: string) => Object.values(ids).includes(id))
          .sort();
        expect(got).toEqual(fixtures.map((f) => ids[f]).sort());
      }
    });
    it(`POST /tokens/search as ${caller}`, async () => {
      const res = await api('POST', '/tokens/search', {
        key: callers[caller],
        body: {
          query: Object.values(ids)
            .map((id) => `id:${id}`)
            .join(' OR '),
        },
      });
      const expected = caller === 'session-authorized' ? 403 : status; // the session was granted token:read only
      expect(res.status).toBe(expected);
      if (expected === 200) expect(res.body.data.map((t: { id: string }) => t.id).sort()).toEqual(fixtures.map((f) => ids[f]).sort());
    });
  }

  const writeMatrix: Record<string, { create: number; update: number; delete: number; detokenize: number }> = {
    public: { create: 201, update: 200, delete: 403, detokenize: 403 },
    'private-mask': { create: 201, update: 200, delete: 403, detokenize: 403 },
    'private-reveal': { create: 403, update: 403, delete: 403, detokenize: 200 },
    management: { create: 403, update: 403, delete: 403, detokenize: 403 },
    'session-pending': { create: 403, update: 403, delete: 403, detokenize: 403 },
    'session-expired': { create: 401, update: 401, delete: 401, detokenize: 401 },
    'other-tenant': { create: 201, update: 404, delete: 404, detokenize: 400 },
  };
  for (const [caller, expected] of Object.entries(writeMatrix)) {
    it(`create / update / delete / detokenize as ${caller}`, async () => {
      const c = await api('POST', '/tokens', { key: callers[caller], body: { type: 'token', data: 'w' } });
      expect(c.status).toBe(expected.create);
      const u = await api('PATCH', `/tokens/${ids.general}`, {
        key: callers[caller],
        contentType: 'application/merge-patch+json',
        body: { metadata: { touched: caller } },
      });
      expect(u.status).toBe(expected.update);
      if (u.status === 200) expect(u.body.data).toBe(FIXTURES.general.masked);
      const d = await api('POST', '/detokenize', { key: callers[caller], body: { v: `{{ ${ids.card} }}` } });
      expect(d.status).toBe(expected.detokenize);
      if (d.status === 200) expect(d.body.v).toEqual(FIXTURES.card.revealed);
      const target = await api('POST', '/tokens', { key: owner, body: { type: 'token', data: 'to delete' } });
      const del = await api('DELETE', `/tokens/${target.body.id}`, { key: callers[caller] });
      expect(del.status).toBe(expected.delete);
    });
  }

  it('rules: ascending priority, first match decides, container prefix', async () => {
    const key = (
      await tenant.app('private', {
        rules: [
          { priority: 20, container: '/pci/', transform: 'reveal', permissions: ['token:read'] },
          { priority: 10, container: '/pci/high/', transform: 'mask', permissions: ['token:read'] },
          { priority: 30, container: '/', transform: 'redact', permissions: ['token:use'] },
        ],
      })
    ).key;
    const card = await api('GET', `/tokens/${ids.card}`, { key });
    expect(card.body.data).toEqual(FIXTURES.card.masked); // priority 10 matches first
    expect((await api('GET', `/tokens/${ids.ssn}`, { key })).status).toBe(403); // first match (/) lacks token:read
  });

  it('rule validation: transform, container form, unique priorities, type limits', async () => {
    const res = await api('POST', '/applications', {
      key: tenant.managementKey,
      body: {
        name: 'bad rules',
        type: 'private',
        rules: [
          { priority: 1, container: 'pci', transform: 'show', permissions: ['token:read'] },
          { priority: 1, container: '/a/', transform: 'mask', permissions: ['reactor:read'] },
          { priority: 2, conditions: [{ attribute: 'id', operator: 'equals', value: 'x' }], transform: 'mask', permissions: ['token:read'] },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(
      expect.arrayContaining(['rules[0].container', 'rules[0].transform', 'rules[1].priority', 'rules[1].permissions[0]', 'rules[2].conditions']),
    );
    const mgmt = await api('POST', '/applications', {
      key: tenant.managementKey,
      body: { name: 'm', type: 'management', rules: [{ priority: 1, container: '/', transform: 'reveal', permissions: ['token:read'] }] },
    });
    expect(mgmt.status).toBe(400);
  });
});
