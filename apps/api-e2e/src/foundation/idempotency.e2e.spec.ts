import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { VISA, api, control, createTenant, type ApiResponse, type TestTenant } from '@coffer/testing';
import { Destination, proxy } from '../proxy/support';
import { formulaCode, makeReactor } from '../reactors/support';

/**
 * SVC-IDEMPOTENCY-KEY end to end. The lost-reply cases pause the service that owns the write (SIGSTOP), so the
 * gateway answers 504 at the RPC deadline while the request waits in the service; once resumed the service writes,
 * and a retry with the same key must get that write back, never a second one. (The retry may also reach the service
 * before the paused request is processed: then one of the two writes and the other rolls back and replays it.)
 */
const keyed = (key: string, extra: Record<string, string> = {}) => ({ 'SVC-IDEMPOTENCY-KEY': key, ...extra });
const newKey = (label: string) => `${label}-${randomUUID()}`;

async function dbQuery<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Retries while the first attempt is still being processed (409) or the service is catching up (503/504). */
async function retry(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (let i = 0; ; i++) {
    const res = await send();
    if (![409, 503, 504].includes(res.status) || i >= 40) return res;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Sends every request while `service` is paused; all must time out; then resumes it. */
async function whilePaused(service: string, sends: Array<() => Promise<ApiResponse>>): Promise<void> {
  await control('pause', service);
  try {
    const lost = await Promise.all(sends.map((s) => s()));
    expect(lost.map((r) => r.status)).toEqual(sends.map(() => 504));
  } finally {
    await control('resume', service);
  }
}

describe('idempotency keys', () => {
  let tenant: TestTenant;
  let writer: { id: string; key: string };

  beforeAll(async () => {
    tenant = await createTenant('idempotency');
    writer = await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:update', 'token:use'] });
  });

  describe('a retry after a lost reply gets the original write, never a second one', () => {
    it('token-service: create, tokenize and update', async () => {
      const tag = randomUUID();
      const existing = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: 'before' } });
      const create = { type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2040 }, metadata: { tag } };
      const tokenize = { first: { type: 'token', data: 'alpha', metadata: { tag } }, second: 'beta' };
      const patch = { data: 'after', metadata: { tag } };
      const keys = { create: newKey('create'), tokenize: newKey('tokenize'), update: newKey('update') };
      const sends = {
        create: () => api('POST', '/tokens', { key: writer.key, headers: keyed(keys.create), body: create }),
        tokenize: () => api('POST', '/tokenize', { key: writer.key, headers: keyed(keys.tokenize), body: tokenize }),
        update: () =>
          api('PATCH', `/tokens/${existing.body.id}`, {
            key: writer.key,
            headers: keyed(keys.update),
            contentType: 'application/merge-patch+json',
            body: patch,
          }),
      };
      await api('GET', '/tokens?size=1', { key: writer.key }); // the principal is cached: only token-service is paused
      await whilePaused('token-service', Object.values(sends));

      const created = await retry(sends.create);
      expect(created.status).toBe(201);
      expect(created.body.data.number).toMatch(/4242$/);
      const tokenized = await retry(sends.tokenize);
      expect(tokenized.status).toBe(200);
      expect(tokenized.body.first).toMatchObject({ type: 'token', id: expect.any(String) });
      expect((await api('GET', `/tokens/${tokenized.body.first.id}`, { key: writer.key })).body.data).toBe('alpha');
      expect(typeof tokenized.body.second).toBe('string');
      const updated = await retry(sends.update);
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id: existing.body.id });
      expect((await api('GET', `/tokens/${existing.body.id}`, { key: writer.key })).body.data).toBe('after');

      // exactly one card and one tokenized token carry the tag; the bare value was tokenized once
      const tagged = await api('GET', `/tokens?metadata.tag=${tag}`, { key: writer.key });
      const ids = tagged.body.data.map((t: { id: string }) => t.id).sort();
      expect(ids).toEqual([created.body.id, tokenized.body.first.id, existing.body.id].sort());
      expect((await api('GET', `/tokens/${tokenized.body.second}`, { key: writer.key })).body.data).toBe('beta');
      const audit = await dbQuery<{ n: string }>(`SELECT count(*) AS n FROM audit_events WHERE tenant_id = $1 AND operation = 'update' AND entity_id = $2`, [
        tenant.tenantId,
        existing.body.id,
      ]);
      expect(Number(audit[0].n)).toBe(1);
    }, 60_000);

    it('session-service: applications, key regeneration, sessions, tenant settings and webhook secret rotation', async () => {
      const pub = await tenant.app('public', { permissions: ['token:create'] });
      const target = await tenant.app('private', { permissions: ['token:read'] });
      const appName = `app-${randomUUID()}`;
      const keys = { app: newKey('app'), regen: newKey('regen'), session: newKey('session'), tenant: newKey('tenant'), rotate: newKey('rotate') };
      const m = tenant.managementKey;
      const sends = {
        app: () => api('POST', '/applications', { key: m, headers: keyed(keys.app), body: { name: appName, type: 'private', permissions: ['token:read'] } }),
        regen: () => api('POST', `/applications/${target.id}/regenerate`, { key: m, headers: keyed(keys.regen) }),
        session: () => api('POST', '/sessions', { key: pub.key, headers: keyed(keys.session) }),
        tenant: () => api('PUT', '/tenants/self', { key: m, headers: keyed(keys.tenant), body: { name: 'renamed once' } }),
        rotate: () => api('POST', '/tenants/self/webhook-secret/rotate', { key: m, headers: keyed(keys.rotate) }),
      };
      await Promise.all([api('GET', '/tenants/self', { key: m }), api('GET', '/tokens', { key: pub.key })]);
      await whilePaused('session-service', Object.values(sends));

      const app = await retry(sends.app);
      expect(app.status).toBe(201);
      const apps = await api('GET', '/applications?size=100', { key: m });
      expect(apps.body.data.filter((a: { name: string }) => a.name === appName)).toHaveLength(1);
      expect((await api('GET', '/tokens', { key: app.body.key })).status).not.toBe(401); // the replayed key is the stored one

      const regen = await retry(sends.regen);
      expect(regen.status).toBe(200);
      expect((await api('GET', '/tokens', { key: regen.body.key })).status).toBe(200); // the key in the replay is the live one
      expect((await api('GET', '/tokens', { key: target.key })).status).toBe(401);

      const session = await retry(sends.session);
      expect(session.status).toBe(201);
      expect(session.body.session_key).toEqual(expect.any(String));
      const sessions = await dbQuery<{ n: string }>(`SELECT count(*) AS n FROM sessions WHERE tenant_id = $1 AND application_id = $2`, [
        tenant.tenantId,
        pub.id,
      ]);
      expect(Number(sessions[0].n)).toBe(1);

      expect((await retry(sends.tenant)).body.name).toBe('renamed once');
      const rotated = await retry(sends.rotate);
      expect(rotated.status).toBe(200);
      const again = await sends.rotate();
      expect(again.body.secret).toBe(rotated.body.secret);
      const secrets = await dbQuery<{ n: string }>(`SELECT count(*) AS n FROM webhook_secrets WHERE tenant_id = $1`, [tenant.tenantId]);
      expect(Number(secrets[0].n)).toBeLessThanOrEqual(2); // the first secret and exactly one rotation
    }, 60_000);

    it('reactor-service: formulas, reactors and an asynchronous invocation (one job)', async () => {
      const m = tenant.managementKey;
      const formulaName = `formula-${randomUUID()}`;
      const { reactorId } = await makeReactor(m, { code: formulaCode('return { raw: { ok: true } };') });
      const invoker = await tenant.app('private', { permissions: ['token:use'] });
      const keys = { formula: newKey('formula'), reactor: newKey('reactor'), react: newKey('react') };
      const sends = {
        formula: () =>
          api('POST', '/reactor-formulas', {
            key: m,
            headers: keyed(keys.formula),
            body: { name: formulaName, type: 'private', code: formulaCode('return { raw: {} };') },
          }),
        react: () =>
          api('POST', `/reactors/${reactorId}/react`, {
            key: invoker.key,
            headers: keyed(keys.react),
            body: { args: {}, callback_url: 'http://127.0.0.1:9/never' },
          }),
      };
      await Promise.all([api('GET', '/reactors', { key: m }), api('GET', '/tokens', { key: invoker.key })]);
      await whilePaused('reactor-service', Object.values(sends));

      const formula = await retry(sends.formula);
      expect(formula.status).toBe(201);
      const formulas = await api('GET', `/reactor-formulas?name=${formulaName}`, { key: m });
      expect(formulas.body.data.filter((f: { name: string }) => f.name === formulaName)).toHaveLength(1);
      const accepted = await retry(sends.react);
      expect(accepted.status).toBe(202);
      const jobs = await dbQuery<{ id: string }>(`SELECT id FROM reactor_jobs WHERE tenant_id = $1 AND reactor_id = $2`, [tenant.tenantId, reactorId]);
      expect(jobs.map((j) => j.id)).toEqual([accepted.body.id]);

      // reactors: the reply is recorded with the write, so a repeat is a replay (no pause needed to show the record)
      const body = { name: 'keyed reactor', configuration: {}, formula: { id: formula.body.id } };
      const first = await api('POST', '/reactors', { key: m, headers: keyed(keys.reactor), body });
      const second = await api('POST', '/reactors', { key: m, headers: keyed(keys.reactor), body });
      expect(second.body.id).toBe(first.body.id);
    }, 60_000);
  });

  it('concurrent identical updates with one key: one update, one audit event; the other gets the same reply or a 409 (still in flight)', async () => {
    const rounds = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const token = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: `race-${i}` } });
        const headers = keyed(newKey(`race-${i}`));
        const send = () =>
          api('PATCH', `/tokens/${token.body.id}`, {
            key: writer.key,
            headers,
            contentType: 'application/merge-patch+json',
            body: { metadata: { round: String(i) } },
          });
        const [a, b] = await Promise.all([send(), send()]);
        return { id: token.body.id, replies: [a, b] };
      }),
    );
    for (const r of rounds) {
      expect([
        [200, 200],
        [200, 409],
      ]).toContainEqual(r.replies.map((x) => x.status).sort());
      const ok = r.replies.filter((x) => x.status === 200);
      for (const x of ok) expect(x.body).toEqual(ok[0].body);
      for (const x of r.replies.filter((y) => y.status === 409)) expect(x.body.detail).toContain('still in progress');
    }
    const audit = await dbQuery<{ entity_id: string; n: string }>(
      `SELECT entity_id, count(*) AS n FROM audit_events WHERE tenant_id = $1 AND operation = 'update' AND entity_id = ANY($2) GROUP BY entity_id`,
      [tenant.tenantId, rounds.map((r) => r.id)],
    );
    expect(audit.map((a) => Number(a.n))).toEqual(rounds.map(() => 1));
  });

  it('a synchronous react runs once: a repeat while it runs gets 409, a later one the recorded result', async () => {
    const { reactorId } = await makeReactor(tenant.managementKey, {
      code: formulaCode('await new Promise((r) => setTimeout(r, 1500)); return { raw: { run: Math.random() } };'),
    });
    const invoker = await tenant.app('private', { permissions: ['token:use'] });
    const headers = keyed(newKey('sync'));
    const react = () => api('POST', `/reactors/${reactorId}/react`, { key: invoker.key, headers, body: { args: {} } });
    const first = react();
    await new Promise((r) => setTimeout(r, 500));
    expect((await react()).status).toBe(409);
    const done = await first;
    expect(done.status).toBe(200);
    const replay = await react();
    expect(replay.status).toBe(200);
    expect(replay.body.raw.run).toBe(done.body.raw.run);
    expect(replay.headers.get('svc-idempotent-replay')).toBe('true');
  });

  it('a replay shows what the caller may see now, never more than at first', async () => {
    const app = await tenant.app('private', {
      rules: [{ description: 'reveal', priority: 1, container: '/', transform: 'reveal', permissions: ['token:create', 'token:read', 'token:use'] }],
    });
    const headers = keyed(newKey('narrowed'));
    const body = { type: 'card', data: { number: VISA, expiration_month: 1, expiration_year: 2041 } };
    const first = await api('POST', '/tokens', { key: app.key, headers, body });
    expect(first.body.data.number).toBe(VISA);
    const narrowed = await api('PUT', `/applications/${app.id}`, {
      key: tenant.managementKey,
      body: { name: 'narrowed', rules: [{ description: 'mask', priority: 1, container: '/', transform: 'mask', permissions: ['token:create', 'token:read'] }] },
    });
    expect(narrowed.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const replay = await api('POST', '/tokens', { key: app.key, headers, body });
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body.data.number).not.toBe(VISA);
    expect(replay.body.data.number).toMatch(/4242$/);
  });

  describe('a react replay (and an asynchronous result) shows its tokens as the rules in force now allow', () => {
    const CARD = { number: VISA, expiration_month: 1, expiration_year: 2042 };
    const MASKED = { number: 'XXXXXXXXXXXX4242', expiration_month: 1, expiration_year: 2042 };
    const revealAll = [{ description: 'all', priority: 1, container: '/', transform: 'reveal', permissions: ['token:create', 'token:read', 'token:use'] }];
    // token:use stays held somewhere (the react route needs it); /pci/ is what the narrowing is about
    const callerRules = (pci: { transform: string; permissions: string[] }) => [
      { description: 'cards', priority: 1, container: '/pci/', ...pci },
      { description: 'the rest', priority: 2, container: '/', transform: 'reveal', permissions: ['token:read', 'token:use'] },
    ];
    const setRules = async (id: string, rules: unknown) => {
      const res = await api('PUT', `/applications/${id}`, { key: tenant.managementKey, body: { name: `rules ${id.slice(0, 8)}`, rules } });
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
    };
    const code = formulaCode(
      `return { raw: { note: 'raw stays' }, tokenize: { card: { type: 'card', data: ${JSON.stringify(CARD)} }, nested: [{ type: 'token', data: 'nested-secret-' + req.args.n, mask: '{{ data | reveal_last: 2 }}' }], plain: 'plain-' + req.args.n } };`,
    );
    let reactorApp: { id: string; key: string };
    let reactorId: string;

    beforeAll(async () => {
      reactorApp = await tenant.app('private', { rules: revealAll });
      ({ reactorId } = await makeReactor(tenant.managementKey, { code }, { application: { id: reactorApp.id } }));
    });

    it('sync react: the caller or the reactor application narrowed after the first reply → the retry is masked or redacted', async () => {
      const caller = await tenant.app('private', { rules: callerRules({ transform: 'reveal', permissions: ['token:read', 'token:use'] }) });
      const headers = keyed(newKey('react-narrowed'));
      const body = { args: { n: 7 } };
      const react = () => api('POST', `/reactors/${reactorId}/react`, { key: caller.key, headers, body });
      const first = await react();
      expect(first.status).toBe(200);
      expect(first.body.tokens.card.data).toEqual(CARD);
      expect(first.body.tokens.nested[0].data).toBe('nested-secret-7');
      const cardId = first.body.tokens.card.id;

      // unchanged rules: the same reply
      const same = await react();
      expect(same.headers.get('svc-idempotent-replay')).toBe('true');
      expect(same.body).toEqual(first.body);

      // the caller's cards go from reveal to mask: the card is masked, the other token (still revealed) is not
      await setRules(caller.id, callerRules({ transform: 'mask', permissions: ['token:read'] }));
      const masked = await react();
      expect(masked.status).toBe(200);
      expect(masked.headers.get('svc-idempotent-replay')).toBe('true');
      expect(masked.body.tokens.card.id).toBe(cardId);
      expect(masked.body.tokens.card.data).toEqual(MASKED);
      expect(masked.body.tokens.nested[0].data).toBe('nested-secret-7');
      expect(masked.body.tokens.plain).toBe(first.body.tokens.plain);
      expect(masked.body.raw).toEqual({ note: 'raw stays' });
      expect(masked.text).not.toContain(VISA);

      // the caller loses token:read on cards: no data at all
      await setRules(caller.id, callerRules({ transform: 'reveal', permissions: ['token:delete'] }));
      const redacted = await react();
      expect(redacted.status).toBe(200);
      expect(redacted.body.tokens.card.id).toBe(cardId);
      expect(redacted.body.tokens.card).not.toHaveProperty('data');
      expect(redacted.text).not.toContain(VISA);

      // the caller may reveal again, but the reactor's application is narrowed to mask: masked (never above the first)
      await setRules(caller.id, callerRules({ transform: 'reveal', permissions: ['token:read', 'token:use'] }));
      await setRules(reactorApp.id, [{ description: 'all', priority: 1, container: '/', transform: 'mask', permissions: ['token:create', 'token:read'] }]);
      try {
        const byApp = await react();
        expect(byApp.body.tokens.card.data).toEqual(MASKED);
        expect(byApp.body.tokens.nested[0].data).toMatch(/^X[X-]+t-7$/); // its own mask, evaluated
        expect(byApp.text).not.toContain(VISA);
      } finally {
        await setRules(reactorApp.id, revealAll);
      }
      // and the stored reply is encrypted
      const rows = await dbQuery<{ reply: Buffer }>(`SELECT reply FROM idempotency_records WHERE tenant_id = $1 AND owner_id = $2`, [
        tenant.tenantId,
        caller.id,
      ]);
      expect(rows).toHaveLength(1);
      expect(rows[0].reply.toString('latin1')).not.toContain(VISA);
    });

    it('sync react of a reactor without an application: the caller created the tokens, its own rules now cap them', async () => {
      const { reactorId: own } = await makeReactor(tenant.managementKey, { code });
      const caller = await tenant.app('private', { rules: revealAll });
      const headers = keyed(newKey('react-own'));
      const react = () => api('POST', `/reactors/${own}/react`, { key: caller.key, headers, body: { args: { n: 9 } } });
      const first = await react();
      expect(first.status).toBe(200);
      expect(first.body.tokens.card.data).toEqual(CARD);
      await setRules(caller.id, [
        { description: 'all', priority: 1, container: '/', transform: 'mask', permissions: ['token:create', 'token:read', 'token:use'] },
      ]);
      const masked = await react();
      expect(masked.headers.get('svc-idempotent-replay')).toBe('true');
      // token:use still reveals (mayReveal), and the create rule now says mask: the write reply transform is mask
      expect(masked.body.tokens.card.data).toEqual(MASKED);
      expect(masked.text).not.toContain(VISA);
      await setRules(caller.id, [
        { description: 'cards', priority: 1, container: '/pci/', transform: 'reveal', permissions: ['token:read', 'token:use'] },
        { description: 'all', priority: 2, container: '/', transform: 'reveal', permissions: ['token:create', 'token:read', 'token:use'] },
      ]);
      const noCreate = await react();
      expect(noCreate.body.tokens.card).not.toHaveProperty('data');
      expect(noCreate.body.tokens.nested[0].data).toBe('nested-secret-9');
    });

    it('sync react: raw built from detokenized args is replayed only while the caller may still use those tokens', async () => {
      const { reactorId: echo } = await makeReactor(tenant.managementKey, { code: formulaCode('return { raw: { echoed: req.args.card } };') });
      const caller = await tenant.app('private', { rules: callerRules({ transform: 'reveal', permissions: ['token:create', 'token:read', 'token:use'] }) });
      const card = await api('POST', '/tokens', { key: caller.key, body: { type: 'card', data: CARD } });
      expect(card.status).toBe(201);
      const headers = keyed(newKey('react-raw'));
      const react = () => api('POST', `/reactors/${echo}/react`, { key: caller.key, headers, body: { args: { card: `{{ ${card.body.id} }}` } } });
      const first = await react();
      expect(first.status).toBe(200);
      expect(first.body.raw.echoed.number).toBe(VISA);
      const same = await react();
      expect(same.headers.get('svc-idempotent-replay')).toBe('true');
      expect(same.body).toEqual(first.body);

      // the caller may now only read cards masked: the recorded raw (the revealed number) is not sent again
      await setRules(caller.id, callerRules({ transform: 'mask', permissions: ['token:read'] }));
      const narrowed = await react();
      expect(narrowed.status).toBe(403);
      expect(narrowed.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(narrowed.text).not.toContain(VISA);

      // allowed again, then the token is deleted: 409, never the stored raw
      await setRules(caller.id, callerRules({ transform: 'reveal', permissions: ['token:read', 'token:use', 'token:delete'] }));
      expect((await react()).body.raw.echoed.number).toBe(VISA);
      expect((await api('DELETE', `/tokens/${card.body.id}`, { key: caller.key })).status).toBe(204);
      const gone = await react();
      expect(gone.status).toBe(409);
      expect(gone.text).not.toContain(VISA);
    });

    it('react-async: the result read back is capped by the rules at the read', async () => {
      const caller = await tenant.app('private', { rules: callerRules({ transform: 'reveal', permissions: ['token:read', 'token:use'] }) });
      const accepted = await api('POST', `/reactors/${reactorId}/react-async`, { key: caller.key, body: { args: { n: 8 } } });
      expect(accepted.status).toBe(202);
      const read = () => api('GET', `/reactors/${reactorId}/results/${accepted.body.id}`, { key: caller.key });
      let done = await read();
      for (let i = 0; i < 200 && done.body?.status === 'pending'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        done = await read();
      }
      expect(done.body.status).toBe('completed');
      expect(done.body.result.tokens.card.data).toEqual(CARD);
      // a management application reads the result, never token data
      const byManagement = await api('GET', `/reactors/${reactorId}/results/${accepted.body.id}`, { key: tenant.managementKey });
      expect(byManagement.body.status).toBe('completed');
      expect(byManagement.body.result.raw).toEqual({ note: 'raw stays' });
      expect(byManagement.body.result.tokens.card).not.toHaveProperty('data');
      expect(byManagement.text).not.toContain(VISA);

      await setRules(caller.id, callerRules({ transform: 'mask', permissions: ['token:read'] }));
      const masked = await read();
      expect(masked.body.result.tokens.card.data).toEqual(MASKED);
      expect(masked.body.result.tokens.nested[0].data).toBe('nested-secret-8');
      expect(masked.text).not.toContain(VISA);
    });
  });

  it('the same key with a different request is a 422; keys belong to the caller; DELETE ignores them', async () => {
    const key = newKey('reuse');
    const first = await api('POST', '/tokens', { key: writer.key, headers: keyed(key), body: { type: 'token', data: 'one' } });
    expect(first.status).toBe(201);
    const other = await api('POST', '/tokens', { key: writer.key, headers: keyed(key), body: { type: 'token', data: 'two' } });
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(other.body).toMatchObject({ status: 422, title: expect.any(String) });
    expect(other.text).not.toContain('two');
    const route = await api('POST', '/tokenize', { key: writer.key, headers: keyed(key), body: { type: 'token', data: 'one' } });
    expect(route.status).toBe(422);
    // field order does not make a different request
    const reordered = await api('POST', '/tokens', { key: writer.key, headers: keyed(key), body: { data: 'one', type: 'token' } });
    expect(reordered.body.id).toBe(first.body.id);
    expect(reordered.headers.get('svc-idempotent-replay')).toBe('true');

    const stranger = await tenant.app('private', { permissions: ['token:create', 'token:read'] });
    const theirs = await api('POST', '/tokens', { key: stranger.key, headers: keyed(key), body: { type: 'token', data: 'one' } });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);

    const del = await tenant.app('private', { permissions: ['token:delete'] });
    expect((await api('DELETE', `/tokens/${first.body.id}`, { key: del.key, headers: keyed(key) })).status).toBe(204);
    expect((await api('DELETE', `/tokens/${first.body.id}`, { key: del.key, headers: keyed(key) })).status).toBe(404);
    // a replay of a create whose token was deleted since: 409, and no second token
    const gone = await api('POST', '/tokens', { key: writer.key, headers: keyed(key), body: { type: 'token', data: 'one' } });
    expect(gone.status).toBe(409);
  });

  it('Idempotency-Key (IETF) replays like SVC-/BT-IDEMPOTENCY-KEY; two different keys are a 400; on /proxy it goes to the destination', async () => {
    const key = newKey('ietf');
    const body = { type: 'token', data: 'ietf' };
    const first = await api('POST', '/tokens', { key: writer.key, headers: { 'Idempotency-Key': key }, body });
    expect(first.status).toBe(201);
    const again = await api('POST', '/tokens', { key: writer.key, headers: { 'Idempotency-Key': key }, body });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('svc-idempotent-replay')).toBe('true');
    // one key whichever header carries it, and the same key in several headers is that key
    const sameKey: Array<Record<string, string>> = [keyed(key), { 'BT-IDEMPOTENCY-KEY': key }, { 'Idempotency-Key': key, 'SVC-IDEMPOTENCY-KEY': key }];
    for (const headers of sameKey) {
      const res = await api('POST', '/tokens', { key: writer.key, headers, body });
      expect({ status: res.status, id: res.body.id, replay: res.headers.get('svc-idempotent-replay') }).toEqual({
        status: 201,
        id: first.body.id,
        replay: 'true',
      });
    }
    expect((await api('POST', '/tokens', { key: writer.key, headers: { 'Idempotency-Key': key }, body: { type: 'token', data: 'other' } })).status).toBe(422);

    // different keys: which one was meant cannot be known, so nothing is written
    const before = (await api('GET', '/tokens?size=1', { key: writer.key })).body.pagination.total_items;
    const conflicting: Array<Record<string, string>> = [
      { 'SVC-IDEMPOTENCY-KEY': newKey('a'), 'Idempotency-Key': newKey('b') },
      { 'BT-IDEMPOTENCY-KEY': newKey('a'), 'Idempotency-Key': newKey('b') },
      { 'SVC-IDEMPOTENCY-KEY': newKey('a'), 'BT-IDEMPOTENCY-KEY': newKey('b') },
    ];
    for (const headers of conflicting) {
      const res = await api('POST', '/tokens', { key: writer.key, headers, body: { type: 'token', data: 'conflict' } });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, title: 'Bad Request', detail: expect.stringContaining('different idempotency keys') });
      expect(res.body.errors.headers).toHaveLength(2);
    }
    expect((await api('GET', '/tokens?size=1', { key: writer.key })).body.pagination.total_items).toBe(before);
    // a read ignores idempotency keys, conflicting ones too
    expect((await api('GET', `/tokens/${first.body.id}`, { key: writer.key, headers: { 'SVC-IDEMPOTENCY-KEY': 'a', 'Idempotency-Key': 'b' } })).status).toBe(
      200,
    );
    expect((await api('POST', '/tokens', { key: writer.key, headers: { 'Idempotency-Key': 'k'.repeat(256) }, body })).status).toBe(400);

    // the proxy forwards Idempotency-Key to the destination (whose header it is) and does not replay by it
    const dest = await new Destination().start();
    try {
      const proxyKey = (await tenant.app('private', { permissions: ['proxy:invoke'] })).key;
      const call = () =>
        proxy('POST', '/proxy', {
          key: proxyKey,
          destination: dest.url('/charges'),
          headers: { 'Idempotency-Key': key },
          contentType: 'application/json',
          body: '{}',
        });
      expect((await call()).status).toBe(200);
      const second = await call();
      expect(second.status).toBe(200);
      expect(second.headers.get('svc-idempotent-replay')).toBeNull();
      expect(dest.received.map((r) => r.headers['idempotency-key'])).toEqual([key, key]);
    } finally {
      await dest.stop();
    }
  });

  it('keys longer than 255 characters are refused; stored replies are encrypted', async () => {
    const long = await api('POST', '/tokens', { key: writer.key, headers: keyed('k'.repeat(256)), body: { type: 'token', data: 'x' } });
    expect(long.status).toBe(400);
    const secretValue = `plaintext-${randomUUID()}`;
    const key = newKey('sealed');
    const app = await api('POST', '/applications', {
      key: tenant.managementKey,
      headers: keyed(key),
      body: { name: secretValue, type: 'private', permissions: ['token:read'] },
    });
    expect(app.status).toBe(201);
    const rows = await dbQuery<{ reply: Buffer; route: string }>(`SELECT reply, route FROM idempotency_records WHERE tenant_id = $1 AND key = $2`, [
      tenant.tenantId,
      key,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].reply.toString('latin1')).not.toContain(secretValue);
    expect(rows[0].reply.toString('latin1')).not.toContain(app.body.key);
  });
});
