import { SUBJECTS, unwrapIdempotentReplay, type Principal, type TokenView } from '@coffer/contracts';
import { IdempotentWrites, inFlightLockName, type IdempotentRequest } from '@coffer/idempotency';
import { TenantSettingsClient } from '@coffer/bus';
import {
  fakeTenantSettings,
  idempotentRequest,
  insertTenant,
  principalOf,
  problemOf,
  startIntegration,
  type IntegrationContext,
  runAsCaller,
} from '@coffer/testing/integration';
import { AuditRepository } from '../../audit/audit.repository';
import { TokenRepository } from '../token.repository';
import { TokenVault } from '../token-vault';
import { CreateTokenUseCase } from './create-token.use-case';
import { TokenInserts } from './token-inserts';
import { tokenCreated } from '../token-events';

/** `fn` run as an operation of `principal`, as the operation dispatcher runs a handler (caller(), currentTraceId()) */
/**
 * Creating tokens against PostgreSQL and the real keyring. The tenant's `deduplicate_tokens` setting comes from
 * session-service over NATS in production; here an in-process fake of that one call (fakeTenantSettings) answers it.
 */
describe('CreateTokenUseCase (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let create: CreateTokenUseCase;
  /** an idempotent create as the operation dispatcher runs it (OPS.token.tokens.create: transaction mode, recorded by the use case) */
  const createIdempotently = (principal: Principal, body: unknown, request: IdempotentRequest) =>
    runAsCaller(principal, () =>
      ctx
        .get(IdempotentWrites)
        .perform({ mode: 'transaction', request, recordsItself: true, codec: create.replayCodec(body) }, (write) =>
          create.execute({ body, idempotency: write }),
        ),
    );
  let vault: TokenVault;
  const settings = fakeTenantSettings();
  let tenant: string;
  let writer: Principal;

  beforeAll(async () => {
    ctx = await startIntegration(
      { providers: [IdempotentWrites, AuditRepository, TokenRepository, TokenInserts, TokenVault, CreateTokenUseCase, TenantSettingsClient] },
      [{ provide: TenantSettingsClient, useValue: settings }],
    );
    create = ctx.get(CreateTokenUseCase);
    vault = ctx.get(TokenVault);
    tenant = await insertTenant(ctx.sql);
    writer = principalOf(tenant, { permissions: ['token:create', 'token:read', 'token:use'] });
  });
  afterAll(() => ctx?.close());

  const rowsOf = async (tenantId: string) =>
    (await ctx.sql.query('SELECT id, data_ciphertext, data_key_id FROM tokens WHERE tenant_id = $1 ORDER BY created_at', [tenantId])).rows;
  const auditOf = async (tenantId: string, id: string) =>
    (await ctx.sql.query('SELECT operation, actor_application_id FROM audit_events WHERE tenant_id = $1 AND entity_id = $2', [tenantId, id])).rows;

  it('stores the data encrypted under the tenant’s key (no plaintext in the row) and audits the create', async () => {
    const view = (await runAsCaller(writer, () => create.execute({ body: { type: 'token', data: 'plaintext-4242', metadata: { a: 'b' } } }))) as TokenView;
    // the reply to a write is at most masked: no mask, no data
    expect(view).toMatchObject({ type: 'token', metadata: { a: 'b' }, containers: ['/general/high/'] });
    expect(view.data).toBeUndefined();
    const row = (await ctx.sql.query('SELECT * FROM tokens WHERE tenant_id = $1 AND id = $2', [tenant, view.id])).rows[0];
    expect(JSON.stringify(row)).not.toContain('plaintext-4242');
    expect(Buffer.from(row.data_ciphertext).toString('latin1')).not.toContain('plaintext-4242');
    expect(await vault.decrypt(tenant, view.id, row.data_key_id, row.data_ciphertext)).toBe('plaintext-4242');
    // the AAD binds the token id: the ciphertext does not open as another token's
    await expect(vault.decrypt(tenant, 'another-id', row.data_key_id, row.data_ciphertext)).rejects.toThrow();
    expect(await auditOf(tenant, view.id)).toEqual([{ operation: 'create', actor_application_id: writer.applicationId }]);
  });

  it('answers a writer without read access with no data (the write reply is at most masked)', async () => {
    const createOnly = principalOf(tenant, { permissions: ['token:create'] });
    const view = (await runAsCaller(createOnly, () =>
      create.execute({ body: { type: 'token', data: 'secret', mask: '{{ data | slice: 0, 2 }}' } }),
    )) as TokenView;
    expect(view.data).toBe('se');
  });

  it('refuses bad fields with a 400 naming each field, a literal id in use with a 409, a foreign container with a 403; none writes', async () => {
    const before = (await rowsOf(tenant)).length;
    const bad = await problemOf(runAsCaller(writer, () => create.execute({ body: { type: 'nope', data: null } })));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.errors ?? {})).toEqual(expect.arrayContaining(['type', 'data']));

    await runAsCaller(writer, () => create.execute({ body: { id: 'literal-id-1', type: 'token', data: 'x' } }));
    expect((await problemOf(runAsCaller(writer, () => create.execute({ body: { id: 'literal-id-1', type: 'token', data: 'y' } })))).status).toBe(409);

    const confined = principalOf(tenant, { rules: [{ priority: 1, container: '/mine/', transform: 'reveal', permissions: ['token:create'] }] });
    expect((await problemOf(runAsCaller(confined, () => create.execute({ body: { type: 'token', data: 'z', containers: ['/other/'] } })))).status).toBe(403);
    expect((await rowsOf(tenant)).length).toBe(before + 1);
  });

  it('deduplicates equal data when the tenant asks for it, per tenant, unless the request opts out', async () => {
    const t = await insertTenant(ctx.sql);
    const other = await insertTenant(ctx.sql);
    settings.settings.set(t, { deduplicate_tokens: true });
    settings.settings.set(other, { deduplicate_tokens: true });
    const p = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const first = (await runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'same' } }))) as TokenView;
    const second = (await runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'same' } }))) as TokenView;
    expect(second.id).toBe(first.id);
    expect(second.data).toBe('same');
    expect((await rowsOf(t)).length).toBe(1);
    // only the first was a create
    expect(await auditOf(t, first.id)).toHaveLength(1);

    const optedOut = (await runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'same', deduplicate_token: false } }))) as TokenView;
    expect(optedOut.id).not.toBe(first.id);

    // another tenant's equal data is its own token: fingerprints are keyed per tenant
    const elsewhere = (await runAsCaller(principalOf(other, { permissions: ['token:create', 'token:read', 'token:use'] }), () =>
      create.execute({ body: { type: 'token', data: 'same' } }),
    )) as TokenView;
    expect(elsewhere.id).not.toBe(first.id);
    expect(elsewhere.fingerprint).not.toBe(first.fingerprint);

    // a deduplicated token is shown to a caller who may not read it in the limited view only
    const blind = (await runAsCaller(principalOf(t, { permissions: ['token:create'] }), () =>
      create.execute({ body: { type: 'token', data: 'same' } }),
    )) as TokenView;
    expect(blind).toEqual({ id: first.id, type: 'token', tenant_id: t, fingerprint: first.fingerprint, containers: ['/general/high/'] });
  });

  it('records an idempotency key with the token (reply encrypted) and replays it; the same key with another body is a 422', async () => {
    const body = { type: 'token', data: 'idem-data' };
    const env = { principal: writer, traceId: 't', idempotencyKey: 'key-1', body };
    const req = idempotentRequest(SUBJECTS.token.tokens.create, env);
    const first = (await createIdempotently(writer, body, req)) as TokenView;
    const record = (await ctx.sql.query('SELECT reply, completed_at FROM idempotency_records WHERE tenant_id = $1 AND key = $2', [tenant, 'key-1'])).rows[0];
    expect(record.completed_at).toBeInstanceOf(Date);
    expect(Buffer.from(record.reply).toString('latin1')).not.toContain(first.id);

    const again = await createIdempotently(writer, body, req);
    expect(unwrapIdempotentReplay(again)?.body).toMatchObject({ id: first.id, type: 'token' });
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1 AND id = $2', [tenant, first.id])).rows[0].n).toBe(1);

    const otherBody = { type: 'token', data: 'different' };
    const reused = idempotentRequest(SUBJECTS.token.tokens.create, { ...env, body: otherBody });
    expect((await problemOf(createIdempotently(writer, otherBody, reused))).status).toBe(422);

    // the token the key created is gone: a retry is a 409, not a second token
    await ctx.sql.query('DELETE FROM tokens WHERE tenant_id = $1 AND id = $2', [tenant, first.id]);
    expect((await problemOf(createIdempotently(writer, body, req))).status).toBe(409);
  });

  it('under concurrency: requests racing with one idempotency key write one token, and so do racing creates of equal data with deduplication', async () => {
    const t = await insertTenant(ctx.sql);
    const p = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const body = { type: 'token', data: 'raced' };
    const req = idempotentRequest(SUBJECTS.token.tokens.create, { principal: p, traceId: 't', idempotencyKey: 'race', body });
    // each is the first (201), its replay, or a 409 because the first was still in flight
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => createIdempotently(p, body, req)));
    const ids = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [((unwrapIdempotentReplay(o.value)?.body ?? o.value) as TokenView).id] : []));
    expect(ids.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ids).size).toBe(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ problem: { status: 409 } });
    expect((await rowsOf(t)).length).toBe(1);
    expect(await auditOf(t, ids[0])).toHaveLength(1);
    const events = await ctx.sql.query(`SELECT count(*)::int AS n FROM event_outbox WHERE tenant_id = $1 AND type = 'token.created'`, [t]);
    expect(events.rows[0].n).toBe(1);

    settings.settings.set(t, { deduplicate_tokens: true });
    const deduped = (await Promise.all(
      [1, 2, 3].map(() => runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'same-race' } }))),
    )) as TokenView[];
    expect(new Set(deduped.map((v) => v.id)).size).toBe(1);
    expect((await rowsOf(t)).length).toBe(2);
  });

  it.each([
    ['a fresh id (one statement)', { type: 'token', data: 'held' }],
    ['a literal id (a transaction)', { type: 'token', data: 'held', id: 'held-token' }],
  ])('a repeat while the first is in flight is a 409 at once, nothing written; after the first ends, a new request or its replay: %s', async (_, body) => {
    const t = await insertTenant(ctx.sql);
    const p = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const req = idempotentRequest(SUBJECTS.token.tokens.create, { principal: p, traceId: 't', idempotencyKey: 'held', body });
    // the first request's transaction, paused after it took the key, as a slow write would be
    const first = await ctx.sql.connect();
    try {
      await first.query('BEGIN');
      await first.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [inFlightLockName(req)]);
      const started = Date.now();
      const refused = await problemOf(createIdempotently(p, body, req));
      expect(refused).toMatchObject({ status: 409, detail: expect.stringContaining('still in progress') });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await rowsOf(t)).toHaveLength(0);
      expect((await ctx.sql.query('SELECT count(*)::int AS n FROM idempotency_records WHERE tenant_id = $1', [t])).rows[0].n).toBe(0);
      // another key of the same caller is not held up
      const other = idempotentRequest(SUBJECTS.token.tokens.create, {
        principal: p,
        traceId: 't',
        idempotencyKey: 'other',
        body: { type: 'token', data: 'x' },
      });
      expect(unwrapIdempotentReplay(await createIdempotently(p, { type: 'token', data: 'x' }, other))).toBeUndefined();
    } finally {
      await first.query('ROLLBACK');
      first.release();
    }
    // the first "failed" (rolled back): the key is free, the next request with it is processed as new, then replayed
    const made = (await createIdempotently(p, body, req)) as TokenView;
    if ('id' in body) expect(made.id).toBe(body.id);
    expect(unwrapIdempotentReplay(await createIdempotently(p, body, req))?.body).toMatchObject({ id: made.id });
    expect(await rowsOf(t)).toHaveLength(2);
    expect(await auditOf(t, made.id)).toHaveLength(1);
  });

  it('one statement that recorded its key but could not write its token takes the record back and writes the transactional way', async () => {
    const t = await insertTenant(ctx.sql);
    const p = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    // the first insert of a token so marked writes nothing (as a clash of random ids would): a trigger skips the row once
    await ctx.sql.query(`
      CREATE TABLE skipped_once (n int);
      CREATE FUNCTION skip_marked_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.metadata->>'skip' = 'once' AND NOT EXISTS (SELECT 1 FROM skipped_once) THEN
          INSERT INTO skipped_once VALUES (1);
          RETURN NULL;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER skip_marked_once BEFORE INSERT ON tokens FOR EACH ROW EXECUTE FUNCTION skip_marked_once();`);
    try {
      const body = { type: 'token', data: 'skipped', metadata: { skip: 'once' } };
      const req = idempotentRequest(SUBJECTS.token.tokens.create, { principal: p, traceId: 't', idempotencyKey: 'skipped', body });
      const made = (await createIdempotently(p, body, req)) as TokenView;
      expect((await ctx.sql.query('SELECT count(*)::int AS n FROM skipped_once')).rows[0].n).toBe(1);
      expect(unwrapIdempotentReplay(await createIdempotently(p, body, req))?.body).toMatchObject({ id: made.id });
      expect(await rowsOf(t)).toHaveLength(1);
      expect(await auditOf(t, made.id)).toHaveLength(1);
    } finally {
      await ctx.sql.query('DROP TRIGGER skip_marked_once ON tokens; DROP FUNCTION skip_marked_once(); DROP TABLE skipped_once');
    }
  });

  it('a key past its 24 hours holds nothing: a new request with it (another body too) is processed and its record replaces the old one', async () => {
    const t = await insertTenant(ctx.sql);
    const p = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const env = (body: unknown) => ({ principal: p, traceId: 't', idempotencyKey: 'aged', body });
    const first = (await createIdempotently(
      p,
      { type: 'token', data: 'one' },
      idempotentRequest(SUBJECTS.token.tokens.create, env({ type: 'token', data: 'one' })),
    )) as TokenView;
    await ctx.sql.query(`UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE tenant_id = $1 AND key = 'aged'`, [t]);
    const body = { type: 'token', data: 'two' };
    const second = await createIdempotently(p, body, idempotentRequest(SUBJECTS.token.tokens.create, env(body)));
    expect(unwrapIdempotentReplay(second)).toBeUndefined();
    expect((second as TokenView).id).not.toBe(first.id);
    const records = await ctx.sql.query(
      `SELECT created_at > now() - interval '1 minute' AS fresh FROM idempotency_records WHERE tenant_id = $1 AND key = 'aged'`,
      [t],
    );
    expect(records.rows).toEqual([{ fresh: true }]);
    expect(unwrapIdempotentReplay(await createIdempotently(p, body, idempotentRequest(SUBJECTS.token.tokens.create, env(body))))?.body).toMatchObject({
      id: (second as TokenView).id,
    });

    // a claim (the exclusive mode of a synchronous react) takes an aged key over the same way
    const writes = ctx.get(IdempotentWrites);
    const claim = idempotentRequest('reactor.reactors.react.v1', { principal: p, traceId: 't', idempotencyKey: 'aged', body: { args: {} } });
    await expect(writes.begin(claim, 1000)).rejects.toMatchObject({ problem: { status: 422 } });
    await ctx.sql.query(`UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE tenant_id = $1 AND key = 'aged'`, [t]);
    expect(await writes.begin(claim, 1000)).toEqual({ claimed: true });
    await writes.complete(claim, { status: 200 });
    expect(await writes.begin(claim, 1000)).toEqual({ recorded: { status: 200 } });
  });

  it('stores the expiry; a token past it is invisible', async () => {
    const future = new Date(Date.now() + 3600_000).toISOString();
    const view = (await runAsCaller(writer, () => create.execute({ body: { type: 'token', data: 'e', expires_at: future } }))) as TokenView;
    expect(view.expires_at).toBe(future);
    expect((await problemOf(runAsCaller(writer, () => create.execute({ body: { type: 'token', data: 'e', expires_at: '2001-01-01' } })))).status).toBe(400);
    await ctx.sql.query(`UPDATE tokens SET expires_at = now() - interval '1 second' WHERE tenant_id = $1 AND id = $2`, [tenant, view.id]);
    expect(await ctx.get(TokenRepository).find(tenant, view.id)).toBeNull();
  });
  it('gives a deleted tenant no new key: a write (a caller the gateway still caches) is a 401, no key and no row are created', async () => {
    const shredded = await insertTenant(ctx.sql);
    await ctx.sql.query('UPDATE tenants SET deleted_at = now() WHERE id = $1', [shredded]);
    const late = principalOf(shredded, { permissions: ['token:create'] });
    const refused = await problemOf(runAsCaller(late, () => create.execute({ body: { type: 'token', data: 'after the delete' } })));
    expect(refused.status).toBe(401);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM tenant_keys WHERE tenant_id = $1', [shredded])).rows[0].n).toBe(0);
    expect(await rowsOf(shredded)).toEqual([]);
  });

  describe('group commit: creates that arrive together are written by one statement, each with its own outcome', () => {
    /** the transaction that wrote each token: rows of one statement share it */
    const writers = async (tenantId: string, ids: string[]) =>
      (await ctx.sql.query('SELECT id, xmin::text AS tx FROM tokens WHERE tenant_id = $1 AND id = ANY($2)', [tenantId, ids])).rows as Array<{
        id: string;
        tx: string;
      }>;
    const settle = <T>(p: Promise<T>) =>
      p.then(
        (value) => ({ value }),
        (err: unknown) => ({ err }),
      );

    it('writes idempotent creates in the batch with their keys: one key twice is one token, a key in flight elsewhere a 409, one recorded before its replay', async () => {
      const t = await insertTenant(ctx.sql);
      const p = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
      const keyed = (key: string, data: string) => {
        const body = { type: 'token', data };
        return settle(
          createIdempotently(p, body, idempotentRequest(SUBJECTS.token.tokens.create, { principal: p, traceId: 'batch', idempotencyKey: key, body })),
        );
      };
      const before = (await keyed('before', 'earlier')) as { value: TokenView };
      const held = idempotentRequest(SUBJECTS.token.tokens.create, {
        principal: p,
        traceId: 'batch',
        idempotencyKey: 'held',
        body: { type: 'token', data: 'h' },
      });
      const first = await ctx.sql.connect();
      try {
        await first.query('BEGIN');
        await first.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [inFlightLockName(held)]);
        const [plain, distinct, twice, again, inFlight] = await Promise.all([
          Promise.all(
            Array.from({ length: 6 }, (_, i) => settle(runAsCaller(p, () => create.execute({ body: { type: 'token', data: `plain-${i}` } }), 'batch'))),
          ),
          Promise.all(Array.from({ length: 16 }, (_, i) => keyed(`key-${i}`, `keyed-${i}`))),
          Promise.all(Array.from({ length: 3 }, () => keyed('twice', 'once'))),
          keyed('before', 'earlier'),
          keyed('held', 'h'),
        ]);
        const views = (xs: Array<{ value?: unknown; err?: unknown }>) => xs.map((x) => x.value as TokenView);
        expect(views(plain).every((v) => v?.id)).toBe(true);
        expect(views(distinct).every((v) => v?.id && !unwrapIdempotentReplay(v))).toBe(true);
        // the key twice: the first written, each other its replay or a 409 (in flight)
        const twiceIds = twice.flatMap((o) => ('value' in o ? [((unwrapIdempotentReplay(o.value)?.body ?? o.value) as TokenView).id] : []));
        expect(new Set(twiceIds).size).toBe(1);
        for (const o of twice) if ('err' in o) expect(await problemOf(Promise.reject(o.err))).toMatchObject({ status: 409 });
        expect((unwrapIdempotentReplay((again as { value: unknown }).value)?.body as TokenView).id).toBe(before.value.id);
        expect(await problemOf(Promise.reject((inFlight as { err: unknown }).err))).toMatchObject({ status: 409 });

        // batched: the plain and the keyed creates share few transactions
        const txOf = async (vs: TokenView[]) =>
          (await ctx.sql.query('SELECT xmin::text AS tx FROM tokens WHERE tenant_id = $1 AND id = ANY($2)', [t, vs.map((v) => v.id)])).rows.map(
            (r: { tx: string }) => r.tx,
          );
        console.log(await txOf(views(plain)), await txOf(views(distinct)));
        // each key names its own token: a repeat now replays it
        for (const [i, v] of views(distinct).entries()) {
          const repeat = await keyed(`key-${i}`, `keyed-${i}`);
          expect((unwrapIdempotentReplay((repeat as { value: unknown }).value)?.body as TokenView).id).toBe(v.id);
          expect(await auditOf(t, v.id)).toHaveLength(1);
        }
      } finally {
        await first.query('ROLLBACK');
        first.release();
      }
      // 1 before + 6 plain + 16 keyed + 1 for the key twice; nothing for the key held elsewhere
      expect(await rowsOf(t)).toHaveLength(24);
      const records = (await ctx.sql.query('SELECT key FROM idempotency_records WHERE tenant_id = $1', [t])).rows.map((r: { key: string }) => r.key);
      expect(records.sort()).toEqual(['before', ...Array.from({ length: 16 }, (_, i) => `key-${i}`), 'twice'].sort());
    });

    it('writes concurrent creates of several tenants in one transaction, with one audit and one event per token, and isolates conflicts', async () => {
      const a = await insertTenant(ctx.sql);
      const b = await insertTenant(ctx.sql);
      const pa = principalOf(a, { permissions: ['token:create', 'token:read', 'token:use'] });
      const pb = principalOf(b, { permissions: ['token:create', 'token:read', 'token:use'] });
      await runAsCaller(pa, () => create.execute({ body: { id: 'taken-id', type: 'token', data: 'old' } }));
      // warm the keys, so the batch below is not spread over key creation
      await runAsCaller(pb, () => create.execute({ body: { type: 'token', data: 'warm' } }));
      const bodies: Array<{ p: Principal; body: Record<string, unknown> }> = [
        ...Array.from({ length: 8 }, (_, i) => ({ p: pa, body: { type: 'token', data: `a-${i}`, search_indexes: ['{{ data }}'] } })),
        ...Array.from({ length: 8 }, (_, i) => ({ p: pb, body: { type: 'token', data: `b-${i}`, metadata: { n: String(i) } } })),
        // a stored token's id: this one alone is a 409
        { p: pa, body: { id: 'taken-id', type: 'token', data: 'new' } },
        // the same new id twice in one batch: one is written, the other meets it (409)
        { p: pb, body: { id: 'twice-id', type: 'token', data: 'first' } },
        { p: pb, body: { id: 'twice-id', type: 'token', data: 'second' } },
        // the same id in another tenant is that tenant's own token
        { p: pa, body: { id: 'twice-id', type: 'token', data: 'a-own' } },
      ];
      const outcomes = await Promise.all(bodies.map(({ p, body }) => settle(runAsCaller(p, () => create.execute({ body }), 'batch'))));
      const ok = outcomes.filter((o): o is { value: TokenView } => 'value' in o).map((o) => o.value);
      const failed = outcomes.filter((o): o is { err: unknown } => 'err' in o);
      expect(ok).toHaveLength(bodies.length - 2);
      expect(await Promise.all(failed.map((f) => problemOf(Promise.reject(f.err)).then((p) => p.status)))).toEqual([409, 409]);

      const written = [
        ...(await writers(
          a,
          ok.filter((v) => v.tenant_id === a).map((v) => v.id),
        )),
        ...(await writers(
          b,
          ok.filter((v) => v.tenant_id === b).map((v) => v.id),
        )),
      ];
      expect(written).toHaveLength(ok.length);
      // batched: far fewer transactions than creates (the colliding one waits for the next)
      expect(new Set(written.map((w) => w.tx)).size).toBeLessThanOrEqual(3);
      for (const v of ok) {
        const audits = (
          await ctx.sql.query('SELECT trace_id FROM audit_events WHERE tenant_id = $1 AND entity_id = $2 AND operation = $3', [v.tenant_id, v.id, 'create'])
        ).rows;
        expect(audits).toEqual([{ trace_id: 'batch' }]);
        const events = (
          await ctx.sql.query("SELECT id FROM event_outbox WHERE tenant_id = $1 AND type = 'token.created' AND event->'data'->'token'->>'id' = $2", [
            v.tenant_id,
            v.id,
          ])
        ).rows;
        expect(events).toHaveLength(1);
      }
      // the search digests of each token are its own
      const digests = (await ctx.sql.query('SELECT token_id, count(*)::int AS n FROM token_search_indexes WHERE tenant_id = $1 GROUP BY token_id', [a])).rows;
      expect(digests.filter((d: { n: number }) => d.n > 0)).toHaveLength(8);
      expect((await ctx.sql.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1 AND id = $2', [b, 'twice-id'])).rows[0].n).toBe(1);
      // every written token opens with its own data
      for (const v of ok) {
        const row = (await ctx.sql.query('SELECT data_ciphertext, data_key_id FROM tokens WHERE tenant_id = $1 AND id = $2', [v.tenant_id, v.id])).rows[0];
        expect(typeof (await vault.decrypt(v.tenant_id, v.id, row.data_key_id, row.data_ciphertext))).toBe('string');
      }
    });

    it('attributes each create of a batch to its own caller: the row, its audit record and its event name who created it, in its trace', async () => {
      // A batch is flushed in the async context of whichever create scheduled it: were anything past the create's start
      // to read the caller from the context, the others of the batch would be written as that one's.
      const t = await insertTenant(ctx.sql);
      const alice = principalOf(t, { permissions: ['token:create'] });
      const bob = principalOf(t, { permissions: ['token:create'] });
      // warm the key, so the creates below reach the batch together
      await runAsCaller(alice, () => create.execute({ body: { type: 'token', data: 'warm' } }));
      const callers = [alice, bob, alice, bob, alice, bob];
      const views = (await Promise.all(
        callers.map((p, i) => runAsCaller(p, () => create.execute({ body: { type: 'token', data: `by-${i}` } }), `trace-${i}`)),
      )) as TokenView[];
      const tx = new Map(
        (
          await writers(
            t,
            views.map((v) => v.id),
          )
        ).map((w) => [w.id, w.tx]),
      );
      // the two callers' creates shared a statement (that is what this test is about)
      const sharing = views.filter((v, i) => views.some((o, j) => callers[j] !== callers[i] && tx.get(o.id) === tx.get(v.id)));
      expect(sharing.length).toBeGreaterThanOrEqual(2);
      for (const [i, v] of views.entries()) {
        const who = callers[i].applicationId;
        const row = (await ctx.sql.query('SELECT created_by FROM tokens WHERE tenant_id = $1 AND id = $2', [t, v.id])).rows[0];
        expect(row.created_by).toBe(who);
        expect(v.created_by).toBe(who);
        const audits = (await ctx.sql.query('SELECT actor_application_id, trace_id FROM audit_events WHERE tenant_id = $1 AND entity_id = $2', [t, v.id])).rows;
        expect(audits).toEqual([{ actor_application_id: who, trace_id: `trace-${i}` }]);
        const events = (
          await ctx.sql.query(
            "SELECT event->'data'->'actor'->>'id' AS actor, event->>'trace_id' AS trace FROM event_outbox WHERE tenant_id = $1 AND type = 'token.created' AND event->'data'->'token'->>'id' = $2",
            [t, v.id],
          )
        ).rows;
        expect(events).toEqual([{ actor: who, trace: `trace-${i}` }]);
      }
    });

    it('deduplicates equal data inside one batch to one token, and replaces an expired holder of an id', async () => {
      const t = await insertTenant(ctx.sql);
      settings.settings.set(t, { deduplicate_tokens: true });
      const p = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
      const old = (await runAsCaller(p, () =>
        create.execute({ body: { id: 'expiring-id', type: 'token', data: 'old', deduplicate_token: false } }),
      )) as TokenView;
      await ctx.sql.query(`UPDATE tokens SET expires_at = now() - interval '1 second' WHERE tenant_id = $1 AND id = $2`, [t, old.id]);
      const views = (await Promise.all([
        ...[1, 2, 3, 4].map(() => runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'equal' } }))),
        runAsCaller(p, () => create.execute({ body: { id: 'expiring-id', type: 'token', data: 'fresh', deduplicate_token: false } })),
        runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'other' } })),
      ])) as TokenView[];
      expect(new Set(views.slice(0, 4).map((v) => v.id)).size).toBe(1);
      expect(views[4].id).toBe('expiring-id');
      expect((await rowsOf(t)).length).toBe(3);
      const row = (await ctx.sql.query('SELECT data_ciphertext, data_key_id FROM tokens WHERE tenant_id = $1 AND id = $2', [t, 'expiring-id'])).rows[0];
      expect(await vault.decrypt(t, 'expiring-id', row.data_key_id, row.data_ciphertext)).toBe('fresh');
      // one create event for the deduplicated token
      expect(await auditOf(t, views[0].id)).toHaveLength(1);
    });

    it('fails only the create whose row PostgreSQL refuses; the others of its batch are written', async () => {
      const t = await insertTenant(ctx.sql);
      const p = principalOf(t, { permissions: ['token:create'] });
      await runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'warm' } }));
      const inserts = ctx.get(TokenInserts);
      const row = (i: number, keyId = '00000000-0000-4000-8000-000000000000') => ({
        tenant_id: t,
        id: `row-${i}`,
        type: 'token',
        data_ciphertext: Buffer.from([1, 2, 3]),
        data_key_id: keyId,
        mask: null,
        fingerprint: `fp-${i}`,
        fingerprint_expression: '{{ data }}',
        container: '/general/high/',
        metadata: {},
        search_indexes: [],
        dedup_key: null,
        expires_at: null,
        created_by: p.applicationId,
        created_at: new Date(),
        modified_by: null,
        modified_at: null,
      });
      // an idempotent create in the same batch: tried again alone with its key's record
      const keyed = idempotentRequest(SUBJECTS.token.tokens.create, { principal: p, traceId: 't', idempotencyKey: 'refused-batch', body: {} });
      const sealed = await ctx.get(IdempotentWrites).ledger.seal(keyed, { id: 'row-4', created: true });
      const results = await Promise.all([
        settle(inserts.insert(t, row(1), [], { traceId: 't' })),
        settle(inserts.insert(t, row(2, 'not-a-uuid'), [], { traceId: 't' })),
        settle(inserts.insert(t, row(3), [], { traceId: 't' })),
        settle(inserts.insertRecorded(t, row(4), [], 't', tokenCreated(p, 't', row(4)), sealed)),
      ]);
      expect(results[0]).toEqual({ value: 'created-audited' });
      expect('err' in results[1]).toBe(true);
      expect(results[2]).toEqual({ value: 'created-audited' });
      expect(results[3]).toEqual({ value: { held: true, recorded: true, created: true } });
      expect((await ctx.sql.query("SELECT count(*)::int AS n FROM idempotency_records WHERE tenant_id = $1 AND key = 'refused-batch'", [t])).rows[0].n).toBe(1);
      expect((await rowsOf(t)).map((r: { id: string }) => r.id).sort()).toEqual(expect.arrayContaining(['row-1', 'row-3', 'row-4']));
      expect((await rowsOf(t)).some((r: { id: string }) => r.id === 'row-2')).toBe(false);
    });
  });
});
