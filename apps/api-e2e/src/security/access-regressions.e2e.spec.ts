import { Client } from 'pg';
import { VISA, api, createTenant, type TestTenant } from '@coffer/testing';
import { formulaCode, makeReactor } from '../reactors/support';

/**
 * Regression tests for the information-flow holes of the security review (F1, F2, F3, F5, F8, F9, F10): each one is a
 * sequence of calls after which some key could see more than its own read decision allows.
 */
const CARD = { number: VISA, expiration_month: 12, expiration_year: 2031 };
const MASKED_CARD = { number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2031 };
const MERGE = 'application/merge-patch+json';
const ALL_TOKEN = ['token:create', 'token:read', 'token:use', 'token:update', 'token:delete', 'token:search'];

describe('security regressions: what a key can see after a write', () => {
  let tenant: TestTenant;
  let owner: string;
  let maskReader: string;

  const newCard = async (body: Record<string, unknown> = {}) => {
    const res = await api('POST', '/tokens', { key: owner, body: { type: 'card', data: CARD, ...body } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const patch = (key: string, id: string, body: unknown) => api('PATCH', `/tokens/${id}`, { key, body, contentType: MERGE });
  const session = async (publicKey: string, authorizerKey: string, grants: Record<string, unknown>) => {
    const created = await api('POST', '/sessions', { key: publicKey });
    expect(created.status).toBe(201);
    const auth = await api('POST', '/sessions/authorize', { key: authorizerKey, body: { nonce: created.body.nonce, ...grants } });
    expect(auth.status).toBe(200);
    return created.body.session_key as string;
  };

  beforeAll(async () => {
    tenant = await createTenant('security-regressions');
    owner = (await tenant.app('private', { permissions: ALL_TOKEN })).key;
    maskReader = (await tenant.app('private', { permissions: ['token:read'] })).key;
  });

  describe('F1: an update-only key cannot reveal through the mask', () => {
    const attempts = [{ mask: '{{ data }}' }, { mask: { number: '{{ data.number }}' } }, { mask: { number: '{{ data.number | reveal_last: 16 }}' } }];

    it('public key with token:update: 403 for every mask change, and masked readers still see the mask', async () => {
      const browser = (await tenant.app('public', { permissions: ['token:create', 'token:update'] })).key;
      const id = await newCard();
      for (const attempt of attempts) {
        const res = await patch(browser, id, attempt);
        expect(res.status).toBe(403);
        expect(res.text).not.toContain(VISA);
      }
      const read = await api('GET', `/tokens/${id}`, { key: maskReader });
      expect(read.body.data).toEqual(MASKED_CARD);
    });

    it('private key with update + read (mask): 403; an update-only session: 403', async () => {
      const updater = (await tenant.app('private', { permissions: ['token:update', 'token:read'] })).key;
      const id = await newCard();
      expect((await patch(updater, id, attempts[0])).status).toBe(403);
      const browser = (await tenant.app('public', { permissions: ['token:create'] })).key;
      const sessionKey = await session(browser, owner, { permissions: ['token:update'] });
      const res = await patch(sessionKey, id, attempts[1]);
      expect(res.status).toBe(403);
      expect((await api('GET', `/tokens/${id}`, { key: maskReader })).body.data).toEqual(MASKED_CARD);
    });

    it('a data change by an update-only key replies masked, never revealed', async () => {
      const browser = (await tenant.app('public', { permissions: ['token:create', 'token:update'] })).key;
      const id = await newCard();
      const res = await patch(browser, id, { data: { expiration_year: 2033 } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...MASKED_CARD, expiration_year: 2033 });
      expect(res.text).not.toContain(VISA);
    });

    it('a reactor whose svc acts as an update-only application cannot change the mask', async () => {
      const app = await tenant.app('private', { permissions: ['token:update'] });
      const id = await newCard();
      const { reactorId } = await makeReactor(
        tenant.managementKey,
        {
          code: formulaCode(
            `try { const t = await req.svc.tokens.update(req.args.id, { mask: '{{ data }}' }); return { raw: { got: t.data } }; } catch (e) { return { raw: { status: e.status } }; }`,
          ),
        },
        { application: { id: app.id } },
      );
      const invoker = (await tenant.app('private', { permissions: ['token:use'] })).key;
      const res = await api('POST', `/reactors/${reactorId}/react`, { key: invoker, body: { args: { id } } });
      expect(res.status).toBe(200);
      expect(res.body.raw).toEqual({ status: 403 });
      expect((await api('GET', `/tokens/${id}`, { key: maskReader })).body.data).toEqual(MASKED_CARD);
    });

    it('a key that may reveal may still change the mask', async () => {
      const id = await newCard();
      const res = await patch(owner, id, { mask: { number: '{{ data.number | last4 }}' } });
      expect(res.status).toBe(200);
      expect((await api('GET', `/tokens/${id}`, { key: maskReader })).body.data).toEqual({ ...MASKED_CARD, number: '4242' });
    });
  });

  describe('F2: a session never exceeds its authorizer', () => {
    let browser: string;
    let onlyA: { id: string; key: string };
    let inA: string;
    let inB: string;

    beforeAll(async () => {
      browser = (await tenant.app('public', { permissions: ['token:create'] })).key;
      onlyA = await tenant.app('private', {
        rules: [{ description: 'a', priority: 1, container: '/a/', transform: 'reveal', permissions: ['token:read', 'token:use', 'token:search'] }],
      });
      inA = await newCard({ containers: ['/a/'] });
      inB = await newCard({ containers: ['/b/'] });
    });

    const expectCapped = async (sessionKey: string) => {
      expect((await api('GET', `/tokens/${inB}`, { key: sessionKey })).status).toBe(403);
      expect((await api('POST', '/detokenize', { key: sessionKey, body: { x: `{{ ${inB} }}` } })).status).toBe(403);
      const listed = await api('GET', '/tokens?size=100', { key: sessionKey });
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((t: { id: string }) => t.id)).not.toContain(inB);
      const searched = await api('POST', '/tokens/search', { key: sessionKey, body: { query: `id:${inB}` } });
      expect(searched.body.data ?? []).toHaveLength(0);
      const own = await api('GET', `/tokens/${inA}`, { key: sessionKey });
      expect(own.status).toBe(200);
      expect(own.body.data).toEqual(CARD);
    };

    it('plain token:read/token:use permissions from an authorizer limited to /a/', async () => {
      await expectCapped(await session(browser, onlyA.key, { permissions: ['token:read', 'token:use', 'token:search'] }));
    });

    it('a rule on / from an authorizer limited to /a/', async () => {
      await expectCapped(
        await session(browser, onlyA.key, {
          rules: [{ description: 'all', priority: 1, container: '/', transform: 'reveal', permissions: ['token:read', 'token:use', 'token:search'] }],
        }),
      );
    });

    it('a session-only condition naming a /b/ token', async () => {
      const key = await session(browser, onlyA.key, {
        rules: [
          {
            description: 'that one',
            priority: 1,
            conditions: [{ attribute: 'id', operator: 'equals', value: inB }],
            transform: 'reveal',
            permissions: ['token:read', 'token:use'],
          },
        ],
      });
      expect((await api('GET', `/tokens/${inB}`, { key })).status).toBe(403);
      expect((await api('POST', '/detokenize', { key, body: { x: `{{ ${inB} }}` } })).status).toBe(403);
    });

    it('an authorizer that only masks cannot hand out reveal', async () => {
      const masker = await tenant.app('private', {
        rules: [{ description: 'a', priority: 1, container: '/a/', transform: 'mask', permissions: ['token:read'] }],
      });
      const key = await session(browser, masker.key, {
        rules: [{ description: 'a', priority: 1, container: '/a/', transform: 'reveal', permissions: ['token:read'] }],
      });
      const res = await api('GET', `/tokens/${inA}`, { key });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(MASKED_CARD);
    });

    it('the cap follows the authorizer’s rules as they change', async () => {
      const authorizer = await tenant.app('private', { permissions: ['token:read', 'token:use'] });
      const key = await session(browser, authorizer.key, { permissions: ['token:read', 'token:use'] });
      expect((await api('GET', `/tokens/${inB}`, { key })).body.data).toEqual(CARD);
      const put = await api('PUT', `/applications/${authorizer.id}`, {
        key: tenant.managementKey,
        body: { name: 'narrowed', rules: [{ description: 'a', priority: 1, container: '/a/', transform: 'mask', permissions: ['token:read'] }] },
      });
      expect(put.status).toBe(200);
      expect((await api('GET', `/tokens/${inB}`, { key })).status).toBe(403);
      expect((await api('GET', `/tokens/${inA}`, { key })).body.data).toEqual(MASKED_CARD);
    });
  });

  describe('F3: moving a token does not escape the rules', () => {
    it('a key that masks /pci/ cannot move a card to where it reveals', async () => {
      const mover = (
        await tenant.app('private', {
          rules: [
            { description: 'pci', priority: 1, container: '/pci/', transform: 'mask', permissions: ['token:read', 'token:update', 'token:create'] },
            { description: 'open', priority: 2, container: '/open/', transform: 'reveal', permissions: ['token:read', 'token:update', 'token:create'] },
          ],
        })
      ).key;
      const id = await newCard();
      const res = await patch(mover, id, { containers: ['/open/'] });
      expect(res.status).toBe(403);
      expect(res.text).not.toContain(VISA);
      const read = await api('GET', `/tokens/${id}`, { key: mover });
      expect(read.body.containers).toEqual(['/pci/high/']);
      expect(read.body.data).toEqual(MASKED_CARD);
    });

    it('a key limited to /a/ cannot move its token into /b/; one that may create in /b/ can', async () => {
      const limited = (
        await tenant.app('private', {
          rules: [
            { description: 'a', priority: 1, container: '/a/', transform: 'reveal', permissions: ['token:read', 'token:use', 'token:update', 'token:create'] },
          ],
        })
      ).key;
      const created = await api('POST', '/tokens', { key: limited, body: { type: 'token', data: 'secret', containers: ['/a/'] } });
      expect(created.status).toBe(201);
      expect((await patch(limited, created.body.id, { containers: ['/b/'] })).status).toBe(403);
      expect((await api('GET', `/tokens/${created.body.id}`, { key: owner })).body.containers).toEqual(['/a/']);
      const moved = await patch(owner, created.body.id, { containers: ['/b/'] });
      expect(moved.status).toBe(200);
      expect(moved.body.containers).toEqual(['/b/']);
    });
  });

  describe('F5: a mask that cannot be evaluated is refused and changes nothing', () => {
    const LOOP = '{% for i in (1..100000000) %}x{% endfor %}';

    it('POST /tokens with such a mask: 400, nothing created', async () => {
      const before = (await api('GET', '/tokens?size=0', { key: owner })).body.pagination.total_items;
      const res = await api('POST', '/tokens', { key: owner, body: { type: 'token', data: 'x', mask: LOOP } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty('mask');
      expect((await api('GET', '/tokens?size=0', { key: owner })).body.pagination.total_items).toBe(before);
    });

    it('PATCH with such a mask and a data change: 400, data and mask unchanged', async () => {
      const id = await newCard();
      const res = await patch(owner, id, { mask: { number: LOOP }, data: { expiration_year: 2040 } });
      expect(res.status).toBe(400);
      const read = await api('GET', `/tokens/${id}`, { key: owner });
      expect(read.body.data).toEqual(CARD);
      expect((await api('GET', `/tokens/${id}`, { key: maskReader })).body.data).toEqual(MASKED_CARD);
    });

    it('a stored mask that cannot be evaluated makes the token redacted, never a failed read or list', async () => {
      const id = await newCard({ metadata: { batch: 'f5-stored' } });
      const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
      await db.connect();
      try {
        await db.query('UPDATE tokens SET mask = $1 WHERE tenant_id = $2 AND id = $3', [JSON.stringify(LOOP), tenant.tenantId, id]);
      } finally {
        await db.end();
      }
      const read = await api('GET', `/tokens/${id}`, { key: maskReader });
      expect(read.status).toBe(200);
      expect('data' in read.body).toBe(false);
      const list = await api('GET', '/tokens?metadata.batch=f5-stored', { key: maskReader });
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
      expect('data' in list.body.data[0]).toBe(false);
    });
  });

  describe('F8: a session dies with its application and its authorizer', () => {
    const cases: Array<[string, (ids: { publicApp: string; authorizer: string }) => Promise<number>]> = [
      [
        'its public application is deleted',
        ({ publicApp }) => api('DELETE', `/applications/${publicApp}`, { key: tenant.managementKey }).then((r) => r.status),
      ],
      ['its authorizer is deleted', ({ authorizer }) => api('DELETE', `/applications/${authorizer}`, { key: tenant.managementKey }).then((r) => r.status)],
      [
        'its public application’s key is regenerated',
        ({ publicApp }) => api('POST', `/applications/${publicApp}/regenerate`, { key: tenant.managementKey }).then((r) => r.status),
      ],
      [
        'its authorizer’s key is regenerated',
        ({ authorizer }) => api('POST', `/applications/${authorizer}/regenerate`, { key: tenant.managementKey }).then((r) => r.status),
      ],
    ];
    for (const [name, act] of cases) {
      it(`401 once ${name}`, async () => {
        const publicApp = await tenant.app('public', { permissions: ['token:create'] });
        const authorizer = await tenant.app('private', { permissions: ['token:read'] });
        const id = await newCard();
        const key = await session(publicApp.key, authorizer.key, { permissions: ['token:read'] });
        expect((await api('GET', `/tokens/${id}`, { key })).status).toBe(200);
        expect([200, 204]).toContain(await act({ publicApp: publicApp.id, authorizer: authorizer.id }));
        const after = await api('GET', `/tokens/${id}`, { key });
        expect(after.status).toBe(401);
        expect(after.headers.get('content-type')).toContain('application/problem+json');
      });
    }
  });

  describe('F9: a patch by a key that cannot reveal never adds search indexes (no data: search oracle)', () => {
    const SSN = '512-34-6789';
    const search = (key: string, query: string) => api('POST', '/tokens/search', { key, body: { query, size: 100 } });

    it('an SSN created without search indexes stays unsearchable by data after a metadata or search_indexes: null patch', async () => {
      const tag = `f9-${Math.random().toString(36).slice(2, 10)}`;
      const created = await api('POST', '/tokens', { key: owner, body: { type: 'social_security_number', data: SSN, search_indexes: [], metadata: { tag } } });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      // a key that may update and search the token, but only sees its mask
      const updater = (await tenant.app('private', { permissions: ['token:update', 'token:search', 'token:read'] })).key;
      const byData = async (value: string) => (await search(updater, `metadata.tag:${tag} AND data:"${value}"`)).body.data.map((t: { id: string }) => t.id);
      const oracle = async () => [...(await byData(SSN)), ...(await byData(SSN.replace(/-/g, ''))), ...(await byData('6789'))];
      expect(await oracle()).toEqual([]);

      // a metadata-only patch (no exposure change) must not bring back the type's default indexes
      const meta = await patch(updater, id, { metadata: { note: 'x' } });
      expect(meta.status).toBe(200);
      expect(meta.body.search_indexes ?? []).toEqual([]);
      expect(await oracle()).toEqual([]);

      // nor may `search_indexes: null` (the type's default) from a key that cannot reveal
      const reset = await patch(updater, id, { search_indexes: null });
      expect(reset.status).toBe(403);
      expect(await oracle()).toEqual([]);
      expect((await api('GET', `/tokens/${id}`, { key: owner })).body.search_indexes ?? []).toEqual([]);

      // a key that may reveal still may
      expect((await patch(owner, id, { search_indexes: null })).status).toBe(200);
      expect(await oracle()).toEqual([id, id, id]);
    });

    it('fingerprint_expression: null (the default) is an exposure change too', async () => {
      const created = await api('POST', '/tokens', {
        key: owner,
        body: { type: 'token', data: 'fp-secret-value', fingerprint_expression: '{{ metadata.k }}' },
      });
      expect(created.status).toBe(201);
      const updater = (await tenant.app('private', { permissions: ['token:update', 'token:read'] })).key;
      expect((await patch(updater, created.body.id, { fingerprint_expression: null })).status).toBe(403);
      const after = await api('GET', `/tokens/${created.body.id}`, { key: owner });
      expect(after.body.fingerprint_expression).toBe('{{ metadata.k }}');
      expect(after.body.fingerprint).toBe(created.body.fingerprint);
      // sending what is stored is no change: null on a token with the default expression, [] on one without indexes
      const plain = await api('POST', '/tokens', { key: owner, body: { type: 'token', data: 'fp-plain-value' } });
      expect((await patch(updater, plain.body.id, { fingerprint_expression: null, search_indexes: [] })).status).toBe(200);
    });
  });

  describe('F10: a deduplicated token in a react reply is capped like a created one', () => {
    // the reactor's application: create replies masked (token:create implies mask), but it reads revealed (token:use)
    const WRITER = { permissions: ['token:create', 'token:read', 'token:use'] };
    // the caller: token:use elsewhere (to invoke), read with mask where the tokens land
    const MASK_CALLER = {
      rules: [
        { description: 'use elsewhere', priority: 1, container: '/callers/', transform: 'reveal', permissions: ['token:use'] },
        { description: 'general', priority: 2, container: '/general/', transform: 'mask', permissions: ['token:read'] },
      ],
    };
    const dedupFormula = formulaCode(
      `return { tokenize: { t: { type: 'token', data: req.args.v, mask: '{{ data | reveal_last: 2 }}', deduplicate_token: true } } };`,
    );
    const secret = () => `f10secret${Math.random().toString(36).slice(2, 10)}`;
    const masked = (v: string) => `${'X'.repeat(v.length - 2)}${v.slice(-2)}`;

    it('sync react: the second call (deduplicated, shown to the application at its read level) is still masked', async () => {
      const app = await tenant.app('private', WRITER);
      const { reactorId } = await makeReactor(tenant.managementKey, { code: dedupFormula }, { application: { id: app.id } });
      const caller = (await tenant.app('private', MASK_CALLER)).key;
      const v = secret();
      const first = await api('POST', `/reactors/${reactorId}/react`, { key: caller, body: { args: { v } } });
      expect(first.status).toBe(200);
      expect(first.body.tokens.t.data).toBe(masked(v));
      const second = await api('POST', `/reactors/${reactorId}/react`, { key: caller, body: { args: { v } } });
      expect(second.status).toBe(200);
      expect(second.body.tokens.t.id).toBe(first.body.tokens.t.id);
      expect(second.body.tokens.t.data).toBe(masked(v));
      expect(second.text).not.toContain(v);
    });

    it('a value matching a token created elsewhere: masked, also in an idempotent replay and an asynchronous result', async () => {
      const app = await tenant.app('private', WRITER);
      const { reactorId } = await makeReactor(tenant.managementKey, { code: dedupFormula }, { application: { id: app.id } });
      const caller = (await tenant.app('private', MASK_CALLER)).key;
      const v = secret();
      const existing = await api('POST', '/tokens', { key: owner, body: { type: 'token', data: v, mask: '{{ data | reveal_last: 2 }}' } });
      expect(existing.status).toBe(201);

      const headers = { 'SVC-IDEMPOTENCY-KEY': `f10-${Math.random().toString(36).slice(2, 12)}` };
      const react = () => api('POST', `/reactors/${reactorId}/react`, { key: caller, headers, body: { args: { v } } });
      const first = await react();
      expect(first.status).toBe(200);
      expect(first.body.tokens.t.id).toBe(existing.body.id);
      expect(first.body.tokens.t.data).toBe(masked(v));
      expect(first.text).not.toContain(v);
      const replay = await react();
      expect(replay.headers.get('svc-idempotent-replay')).toBe('true');
      expect(replay.body.tokens.t.data).toBe(masked(v));
      expect(replay.text).not.toContain(v);

      const accepted = await api('POST', `/reactors/${reactorId}/react-async`, { key: caller, body: { args: { v } } });
      expect(accepted.status).toBe(202);
      const read = () => api('GET', `/reactors/${reactorId}/results/${accepted.body.id}`, { key: caller });
      let done = await read();
      for (let i = 0; i < 200 && done.body?.status === 'pending'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        done = await read();
      }
      expect(done.body.status).toBe('completed');
      expect(done.body.result.tokens.t.id).toBe(existing.body.id);
      expect(done.body.result.tokens.t.data).toBe(masked(v));
      expect(done.text).not.toContain(v);
    });

    it('a caller that may reveal still sees the create reply of the application (masked), never its read level', async () => {
      const app = await tenant.app('private', WRITER);
      const { reactorId } = await makeReactor(tenant.managementKey, { code: dedupFormula }, { application: { id: app.id } });
      const caller = (await tenant.app('private', { permissions: ['token:use'] })).key;
      const v = secret();
      await api('POST', '/tokens', { key: owner, body: { type: 'token', data: v, mask: '{{ data | reveal_last: 2 }}' } });
      const res = await api('POST', `/reactors/${reactorId}/react`, { key: caller, body: { args: { v } } });
      expect(res.status).toBe(200);
      expect(res.body.tokens.t.data).toBe(masked(v));
    });
  });

  describe('read ceiling of a reactor reply: tokens created as the reactor application, shown to the caller', () => {
    it('the caller sees them no more revealed than its own decision (redacted, masked, revealed)', async () => {
      const app = await tenant.app('private', {
        rules: [{ description: 'all', priority: 1, container: '/', transform: 'reveal', permissions: ['token:create', 'token:use', 'token:read'] }],
      });
      const { reactorId } = await makeReactor(
        tenant.managementKey,
        { code: formulaCode(`return { tokenize: { t: { type: 'token', data: 'reactor-secret', mask: '{{ data | reveal_last: 2 }}' } } };`) },
        { application: { id: app.id } },
      );
      const callers = {
        redact: { rules: [{ description: 'use elsewhere', priority: 1, container: '/callers/', transform: 'reveal', permissions: ['token:use'] }] },
        mask: {
          rules: [
            { description: 'use elsewhere', priority: 1, container: '/callers/', transform: 'reveal', permissions: ['token:use'] },
            { description: 'general', priority: 2, container: '/general/', transform: 'mask', permissions: ['token:read'] },
          ],
        },
        reveal: { permissions: ['token:use'] },
      };
      for (const [expected, grants] of Object.entries(callers)) {
        const caller = (await tenant.app('private', grants)).key;
        const res = await api('POST', `/reactors/${reactorId}/react`, { key: caller, body: {} });
        expect(res.status).toBe(200);
        const token = res.body.tokens.t;
        if (expected === 'redact') expect('data' in token).toBe(false);
        if (expected === 'mask') expect(token.data).toBe('XXXXXXX-XXXXet');
        if (expected === 'reveal') expect(token.data).toBe('reactor-secret');
        if (expected !== 'reveal') expect(res.text).not.toContain('reactor-secret');
      }
    });
  });

  // A key's lookup in session-service that was under way when its application was deleted may have read the application
  // before the delete; the gateway used to cache that answer after the delete had been announced, and the key then
  // worked for AUTH_CACHE_TTL_MS more. The window is a millisecond or two wide, so the delete and a first request with
  // the key are fired together, many times: before the fix about one try in a hundred left the key working (2 of
  // 400 and 10 of 1,000 in two runs); the deterministic check is principal-resolver.spec.ts in the gateway.
  it('a key whose lookup was under way when its application was deleted is refused once the delete has answered', async () => {
    // management applications of their own: 800 creates and deletes are over one management key's rate limit
    // (RATE_LIMIT_MANAGEMENT, 200/min per application), 160 of them a key are not
    const admins: string[] = [];
    for (let a = 0; a < 5; a++) admins.push((await tenant.app('management', { permissions: ['application:create', 'application:delete'] })).key);
    const stillWorking: number[] = [];
    for (let i = 0; i < 400; i++) {
      const admin = admins[i % admins.length];
      const created = await api('POST', '/applications', { key: admin, body: { name: `revoked ${i}`, type: 'private', permissions: ['token:read'] } });
      expect(created.status).toBe(201);
      const [deleted] = await Promise.all([
        api('DELETE', `/applications/${created.body.id}`, { key: admin }),
        new Promise((r) => setTimeout(r, Math.random() * 6)).then(() => api('GET', '/ping', { key: created.body.key })),
      ]);
      expect(deleted.status).toBe(204);
      // the delete was announced to every gateway before it answered; a little slack for the announcement's delivery
      await new Promise((r) => setTimeout(r, 20));
      if ((await api('GET', '/ping', { key: created.body.key })).status !== 401) stillWorking.push(i);
    }
    expect(stillWorking).toEqual([]);
  }, 120_000);
});
