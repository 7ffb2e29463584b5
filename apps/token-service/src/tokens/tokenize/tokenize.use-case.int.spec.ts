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
import { CreateTokenUseCase } from '../create/create-token.use-case';
import { TokenInserts } from '../create/token-inserts';
import { TokenIntentRepository } from '../../token-intents/token-intent.repository';
import { TokenIntentsUseCase } from '../../token-intents/token-intents.use-case';
import { TokenizeUseCase } from './tokenize.use-case';

/** `fn` run as an operation of `principal`, as the operation dispatcher runs a handler (caller(), currentTraceId()) */
/** POST /tokenize against PostgreSQL: all-or-nothing writes in one transaction; tenant settings come from a fake (no NATS). */
describe('TokenizeUseCase (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let tokenize: TokenizeUseCase;
  /** an idempotent tokenize as the operation dispatcher runs it (OPS.token.tokens.tokenize: transaction mode, recorded by the use case) */
  const tokenizeIdempotently = (principal: Principal, payload: unknown, request: IdempotentRequest) =>
    runAsCaller(principal, () =>
      ctx
        .get(IdempotentWrites)
        .perform({ mode: 'transaction', request, recordsItself: true, codec: tokenize.replayCodec(payload, false) }, (write) =>
          tokenize.execute(payload, write),
        ),
    );
  const settings = fakeTenantSettings();
  let tenant: string;
  let p: Principal;

  beforeAll(async () => {
    ctx = await startIntegration(
      {
        providers: [
          IdempotentWrites,
          AuditRepository,
          TokenRepository,
          TokenInserts,
          TokenVault,
          CreateTokenUseCase,
          TokenizeUseCase,
          TenantSettingsClient,
          TokenIntentRepository,
          TokenIntentsUseCase,
        ],
      },
      [{ provide: TenantSettingsClient, useValue: settings }],
    );
    tokenize = ctx.get(TokenizeUseCase);
    tenant = await insertTenant(ctx.sql);
    p = principalOf(tenant, { permissions: ['token:create', 'token:read', 'token:use'] });
  });
  afterAll(() => ctx?.close());

  const count = async (tenantId: string) => (await ctx.sql.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1', [tenantId])).rows[0].n;

  it('replaces primitives by token ids and token requests by tokens, each stored and audited', async () => {
    const out = (await runAsCaller(p, () => tokenize.execute({ card: { type: 'token', data: 'c-1' }, list: ['x', 7], keep: null }))) as unknown as {
      card: TokenView;
      list: string[];
      keep: null;
    };
    expect(out.keep).toBeNull();
    expect(out.list).toHaveLength(2);
    const ids = [out.card.id, ...out.list];
    const rows = (await ctx.sql.query('SELECT id, data_key_id, data_ciphertext FROM tokens WHERE tenant_id = $1 AND id = ANY($2)', [tenant, ids])).rows;
    expect(rows).toHaveLength(3);
    const vault = ctx.get(TokenVault);
    const plain = await Promise.all(rows.map((r) => vault.decrypt(tenant, r.id, r.data_key_id, r.data_ciphertext)));
    expect(plain.sort()).toEqual(['c-1', 'x', 7].sort());
    const audit = await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND operation = 'create' AND entity_id = ANY($2)`, [
      tenant,
      ids,
    ]);
    expect(audit.rows[0].n).toBe(3);
  });

  it('is all-or-nothing: one bad token refuses the whole call (400 at its path), one taken id rolls every write back (409)', async () => {
    const before = await count(tenant);
    const bad = await problemOf(runAsCaller(p, () => tokenize.execute({ a: 'fine', b: { type: 'nope', data: 1 } })));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.errors ?? {})).toContain('b.type');
    await runAsCaller(p, () => tokenize.execute({ type: 'token', data: 'taken', id: 'taken-id' }));
    const after = await count(tenant);
    expect(after).toBe(before + 1);
    const clash = await problemOf(runAsCaller(p, () => tokenize.execute(['first', { type: 'token', data: 'again', id: 'taken-id' }])));
    expect(clash.status).toBe(409);
    expect(await count(tenant)).toBe(after);
  });

  it('deduplicates inside one call and against stored tokens when the tenant asks for it', async () => {
    const t = await insertTenant(ctx.sql);
    settings.settings.set(t, { deduplicate_tokens: true });
    const q = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const [a, b] = (await runAsCaller(q, () => tokenize.execute(['same', 'same']))) as string[];
    expect(a).toBe(b);
    expect(((await runAsCaller(q, () => tokenize.execute(['same']))) as string[])[0]).toBe(a);
    expect(await count(t)).toBe(1);
  });

  it('under concurrency with deduplication: racing calls tokenizing equal values all get the one token (a conflict loop would run into the test timeout)', async () => {
    const t = await insertTenant(ctx.sql);
    settings.settings.set(t, { deduplicate_tokens: true });
    const q = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const results = (await Promise.all([1, 2, 3, 4].map(() => runAsCaller(q, () => tokenize.execute(['raced-value']))))) as string[][];
    expect(new Set(results.map((r) => r[0])).size).toBe(1);
    expect(await count(t)).toBe(1);
  });

  it('records its idempotency key in the write transaction and replays the same ids without writing again', async () => {
    const payload = { n: 'idem-1', m: 'idem-2' };
    const req = idempotentRequest(SUBJECTS.token.tokens.tokenize, { principal: p, traceId: 't', idempotencyKey: 'tok-1', body: { payload } });
    const first = (await tokenizeIdempotently(p, payload, req)) as Record<string, string>;
    const before = await count(tenant);
    const again = unwrapIdempotentReplay(await tokenizeIdempotently(p, payload, req))?.body;
    expect(again).toEqual(first);
    expect(await count(tenant)).toBe(before);
  });

  it("writes the common call (fresh ids, no deduplication) with every token's digests, audit record and event, each once", async () => {
    const t = await insertTenant(ctx.sql);
    const q = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const out = (await runAsCaller(q, () =>
      tokenize.execute({ card: { type: 'token', data: 'findable', search_indexes: ['{{ data }}'] }, list: ['a', 'b'] }),
    )) as unknown as { card: TokenView; list: string[] };
    const ids = [out.card.id, ...out.list];
    expect(await count(t)).toBe(3);
    const per = async (table: string, column: string) =>
      (await ctx.sql.query(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1 AND ${column}`, [t, ids])).rows[0].n;
    expect(await per('audit_events', `operation = 'create' AND entity_id = ANY($2)`)).toBe(3);
    expect(await per('event_outbox', `type = 'token.created' AND event->'data'->'token'->>'id' = ANY($2)`)).toBe(3);
    expect(await per('token_search_indexes', `token_id = ANY($2)`)).toBe(1);
  });

  it('all or nothing in one statement too: a taken id (as a clash of random ids would be) writes nothing of it, and the call is written the transactional way', async () => {
    const t = await insertTenant(ctx.sql);
    const q = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    // the first insert of a token so marked fails as a taken id would; a sequence counts the tries (it outlives a rollback)
    await ctx.sql.query(`
      CREATE SEQUENCE clash_tries;
      CREATE FUNCTION clash_marked_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.metadata->>'clash' = 'once' THEN
          IF nextval('clash_tries') = 1 THEN
            RAISE EXCEPTION 'id taken' USING ERRCODE = 'unique_violation';
          END IF;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER clash_marked_once BEFORE INSERT ON tokens FOR EACH ROW EXECUTE FUNCTION clash_marked_once();`);
    try {
      const payload = ['first', { type: 'token', data: 'marked', metadata: { clash: 'once' } }, 'last'];
      const req = idempotentRequest(SUBJECTS.token.tokens.tokenize, { principal: q, traceId: 't', idempotencyKey: 'clash', body: { payload } });
      const out = (await tokenizeIdempotently(q, payload, req)) as [string, TokenView, string];
      // tried at least twice: refused in the one statement, written by the transaction
      expect((await ctx.sql.query('SELECT last_value::int AS n FROM clash_tries')).rows[0].n).toBeGreaterThanOrEqual(2);
      const ids = [out[0], out[1].id, out[2]];
      expect(await count(t)).toBe(3);
      const audit = await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND entity_id = ANY($2)`, [t, ids]);
      expect(audit.rows[0].n).toBe(3);
      const events = await ctx.sql.query(`SELECT count(*)::int AS n FROM event_outbox WHERE tenant_id = $1 AND type = 'token.created'`, [t]);
      expect(events.rows[0].n).toBe(3);
      expect(unwrapIdempotentReplay(await tokenizeIdempotently(q, payload, req))?.body).toEqual(out);
      expect(await count(t)).toBe(3);
    } finally {
      await ctx.sql.query('DROP TRIGGER clash_marked_once ON tokens; DROP FUNCTION clash_marked_once(); DROP SEQUENCE clash_tries');
    }
  });

  it('a repeat while the first is in flight is a 409 at once with nothing written; once the first has ended, a new call, then its replay', async () => {
    const t = await insertTenant(ctx.sql);
    const q = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const payload = ['held-1', 'held-2'];
    const req = idempotentRequest(SUBJECTS.token.tokens.tokenize, { principal: q, traceId: 't', idempotencyKey: 'held', body: { payload } });
    // the first call's transaction, paused after it took the key, as a slow write would be
    const first = await ctx.sql.connect();
    try {
      await first.query('BEGIN');
      await first.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [inFlightLockName(req)]);
      expect(await problemOf(tokenizeIdempotently(q, payload, req))).toMatchObject({ status: 409, detail: expect.stringContaining('still in progress') });
      expect(await count(t)).toBe(0);
      expect((await ctx.sql.query('SELECT count(*)::int AS n FROM idempotency_records WHERE tenant_id = $1', [t])).rows[0].n).toBe(0);
    } finally {
      await first.query('ROLLBACK');
      first.release();
    }
    const made = await tokenizeIdempotently(q, payload, req);
    expect(unwrapIdempotentReplay(made)).toBeUndefined();
    expect(unwrapIdempotentReplay(await tokenizeIdempotently(q, payload, req))?.body).toEqual(made);
    expect(await count(t)).toBe(2);
  });

  it('refuses more than 100 tokens in one call before writing anything', async () => {
    const before = await count(tenant);
    expect((await problemOf(runAsCaller(p, () => tokenize.execute(Array.from({ length: 101 }, (_, i) => `v${i}`))))).status).toBe(400);
    expect(await count(tenant)).toBe(before);
  });

  describe('token intents in the payload', () => {
    const CARD = { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 };
    const front = () => principalOf(tenant, { type: 'public', permissions: ['token-intent:create'] });
    const intent = async () => (await runAsCaller(front(), () => ctx.get(TokenIntentsUseCase).create({ type: 'card', data: CARD }))).id;
    const intentRow = async (id: string) => (await ctx.sql.query('SELECT converted_at, data_ciphertext FROM token_intents WHERE id = $1', [id])).rows[0];

    it('an intent is created, and deleted, with its audit record and its event in the same statement; deleting one that is gone writes nothing', async () => {
      const id = await intent();
      const recorded = async (operation: string, type: string) => ({
        audit: (await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE entity_id = $1 AND operation = $2`, [id, operation])).rows[0].n,
        events: (await ctx.sql.query(`SELECT count(*)::int AS n FROM event_outbox WHERE type = $1 AND event->'data'->'token_intent'->>'id' = $2`, [type, id]))
          .rows[0].n,
      });
      expect(await recorded('create', 'token-intent.created')).toEqual({ audit: 1, events: 1 });
      const owner = principalOf(tenant, { permissions: ['token-intent:delete'] });
      await runAsCaller(owner, () => ctx.get(TokenIntentsUseCase).delete(id));
      expect(await intentRow(id)).toBeUndefined();
      expect(await recorded('delete', 'token-intent.deleted')).toEqual({ audit: 1, events: 1 });
      expect((await problemOf(runAsCaller(owner, () => ctx.get(TokenIntentsUseCase).delete(id)))).status).toBe(404);
      expect(await recorded('delete', 'token-intent.deleted')).toEqual({ audit: 1, events: 1 });
    });

    it("become tokens of the intents' data with the item's other fields, each intent consumed in the call's transaction", async () => {
      const [a, b] = [await intent(), await intent()];
      const out = (await runAsCaller(p, () =>
        tokenize.execute({
          pay: { token_intent_id: a, metadata: { order: 'o-1' } },
          list: [{ type: 'card', token_intent_id: b }],
          note: 'n',
        }),
      )) as unknown as {
        pay: TokenView;
        list: TokenView[];
        note: string;
      };
      expect(out.pay.type).toBe('card');
      expect(out.pay.metadata).toEqual({ order: 'o-1' });
      expect(out.list[0].type).toBe('card');
      const rows = (
        await ctx.sql.query('SELECT id, data_key_id, data_ciphertext FROM tokens WHERE tenant_id = $1 AND id = ANY($2)', [tenant, [out.pay.id, out.list[0].id]])
      ).rows;
      const vault = ctx.get(TokenVault);
      for (const r of rows) expect(await vault.decrypt(tenant, r.id, r.data_key_id, r.data_ciphertext)).toEqual(CARD);
      for (const id of [a, b]) expect(await intentRow(id)).toMatchObject({ converted_at: expect.any(Date), data_ciphertext: null });
    });

    it('all or nothing: an intent named twice, one already converted or unknown refuses the call and consumes none', async () => {
      const a = await intent();
      const before = await count(tenant);
      expect((await problemOf(runAsCaller(p, () => tokenize.execute([{ token_intent_id: a }, { token_intent_id: a }])))).status).toBe(409);
      expect(await intentRow(a)).toMatchObject({ converted_at: null });
      expect(
        (await problemOf(runAsCaller(p, () => tokenize.execute([{ token_intent_id: a }, { token_intent_id: '00000000-0000-4000-8000-000000000000' }])))).status,
      ).toBe(404);
      expect(await intentRow(a)).toMatchObject({ converted_at: null });
      await runAsCaller(p, () => tokenize.execute([{ token_intent_id: a }]));
      expect((await problemOf(runAsCaller(p, () => tokenize.execute({ again: { token_intent_id: a } })))).status).toBe(409);
      expect(await count(tenant)).toBe(before + 1);
    });

    it('a bad id, data beside the id or another type is a 400 naming its place', async () => {
      const a = await intent();
      const problem = await problemOf(runAsCaller(p, () => tokenize.execute({ x: { token_intent_id: 7 }, y: [{ type: 'bank', token_intent_id: a }] })));
      expect(problem.status).toBe(400);
      expect(Object.keys(problem.errors ?? {}).sort()).toEqual(['x.token_intent_id', 'y[0].type']);
      expect(await intentRow(a)).toMatchObject({ converted_at: null });
    });

    it('an idempotent repeat answers the same tokens although the intents are consumed', async () => {
      const a = await intent();
      const payload = { pay: { token_intent_id: a } };
      const req = idempotentRequest(SUBJECTS.token.tokens.tokenize, { principal: p, traceId: 't', idempotencyKey: 'tok-intent-1', body: { payload } });
      const first = (await tokenizeIdempotently(p, payload, req)) as { pay: TokenView };
      const again = unwrapIdempotentReplay(await tokenizeIdempotently(p, payload, req))?.body as { pay: TokenView };
      expect(again.pay.id).toBe(first.pay.id);
    });
  });
});
