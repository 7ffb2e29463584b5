import { SUBJECTS, unwrapIdempotentReplay, type Principal, type TokenView } from '@coffer/contracts';
import { IdempotentWrites, type IdempotentRequest } from '@coffer/idempotency';
import { TenantSettingsClient } from '@coffer/messaging';
import {
  fakeTenantSettings,
  idempotentRequest,
  insertTenant,
  principalOf,
  problemOf,
  startIntegration,
  type IntegrationContext,
} from '@coffer/testing/integration';
import { AuditRepository } from '../../audit/audit.repository';
import { TokenRepository } from '../token.repository';
import { TokenVault } from '../token-vault';
import { CreateTokenUseCase } from '../create/create-token.use-case';
import { TokenInserts } from '../create/token-inserts';
import { TokenizeUseCase } from './tokenize.use-case';

/** POST /tokenize against PostgreSQL: all-or-nothing writes in one transaction; tenant settings come from a fake (no NATS). */
describe('TokenizeUseCase (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let tokenize: TokenizeUseCase;
  /** an idempotent tokenize as the operation dispatcher runs it (OPS.token.tokens.tokenize: transaction mode, recorded by the use case) */
  const tokenizeIdempotently = (principal: Principal, payload: unknown, request: IdempotentRequest) =>
    ctx
      .get(IdempotentWrites)
      .perform({ mode: 'transaction', request, recordsItself: true, codec: tokenize.replayCodec(principal, payload, false) }, (write) =>
        tokenize.execute(principal, 't', payload, write),
      );
  const settings = fakeTenantSettings();
  let tenant: string;
  let p: Principal;

  beforeAll(async () => {
    ctx = await startIntegration(
      { providers: [IdempotentWrites, AuditRepository, TokenRepository, TokenInserts, TokenVault, CreateTokenUseCase, TokenizeUseCase, TenantSettingsClient] },
      [{ provide: TenantSettingsClient, useValue: settings }],
    );
    tokenize = ctx.get(TokenizeUseCase);
    tenant = await insertTenant(ctx.sql);
    p = principalOf(tenant, { permissions: ['token:create', 'token:read', 'token:use'] });
  });
  afterAll(() => ctx?.close());

  const count = async (tenantId: string) => (await ctx.sql.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1', [tenantId])).rows[0].n;

  it('replaces primitives by token ids and token requests by tokens, each stored and audited', async () => {
    const out = (await tokenize.execute(p, 't', { card: { type: 'token', data: 'c-1' }, list: ['x', 7], keep: null })) as {
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
    const bad = await problemOf(tokenize.execute(p, 't', { a: 'fine', b: { type: 'nope', data: 1 } }));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.errors ?? {})).toContain('b.type');
    await tokenize.execute(p, 't', { type: 'token', data: 'taken', id: 'taken-id' });
    const after = await count(tenant);
    expect(after).toBe(before + 1);
    const clash = await problemOf(tokenize.execute(p, 't', ['first', { type: 'token', data: 'again', id: 'taken-id' }]));
    expect(clash.status).toBe(409);
    expect(await count(tenant)).toBe(after);
  });

  it('deduplicates inside one call and against stored tokens when the tenant asks for it', async () => {
    const t = await insertTenant(ctx.sql);
    settings.settings.set(t, { deduplicate_tokens: true });
    const q = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const [a, b] = (await tokenize.execute(q, 't', ['same', 'same'])) as string[];
    expect(a).toBe(b);
    expect(((await tokenize.execute(q, 't', ['same'])) as string[])[0]).toBe(a);
    expect(await count(t)).toBe(1);
  });

  it('under concurrency with deduplication: racing calls tokenizing equal values all get the one token (a conflict loop would run into the test timeout)', async () => {
    const t = await insertTenant(ctx.sql);
    settings.settings.set(t, { deduplicate_tokens: true });
    const q = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const results = (await Promise.all([1, 2, 3, 4].map(() => tokenize.execute(q, 't', ['raced-value'])))) as string[][];
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

  it('refuses more than 100 tokens in one call before writing anything', async () => {
    const before = await count(tenant);
    expect(
      (
        await problemOf(
          tokenize.execute(
            p,
            't',
            Array.from({ length: 101 }, (_, i) => `v${i}`),
          ),
        )
      ).status,
    ).toBe(400);
    expect(await count(tenant)).toBe(before);
  });
});
