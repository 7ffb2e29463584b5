import type { Principal, TokenView } from '@coffer/contracts';
import { IdempotentWrites } from '@coffer/idempotency';
import { TenantSettingsClient } from '@coffer/bus';
import { fakeTenantSettings, insertTenant, principalOf, problemOf, startIntegration, type IntegrationContext, runAsCaller } from '@coffer/testing/integration';
import { AuditRepository } from '../../audit/audit.repository';
import { TokenRepository } from '../token.repository';
import { TokenVault } from '../token-vault';
import { CreateTokenUseCase } from '../create/create-token.use-case';
import { TokenInserts } from '../create/token-inserts';
import { SearchTokensUseCase } from './search-tokens.use-case';

/** `fn` run as an operation of `principal`, as the operation dispatcher runs a handler (caller(), currentTraceId()) */
/** POST /tokens/search against PostgreSQL: `data:` terms match blind-index rows, per tenant; nothing is decrypted to search. */
describe('SearchTokensUseCase (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let search: SearchTokensUseCase;
  let create: CreateTokenUseCase;
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
          SearchTokensUseCase,
          TenantSettingsClient,
        ],
      },
      // creates look up the tenant's dedup setting in session-service: an in-process fake here (no NATS)
      [{ provide: TenantSettingsClient, useValue: fakeTenantSettings() }],
    );
    search = ctx.get(SearchTokensUseCase);
    create = ctx.get(CreateTokenUseCase);
    tenant = await insertTenant(ctx.sql);
    p = principalOf(tenant, { permissions: ['token:create', 'token:search', 'token:use'] });
  });
  afterAll(() => ctx?.close());

  const make = async (principal: Principal, data: string) =>
    (await runAsCaller(principal, () => create.execute({ body: { type: 'token', data, search_indexes: ['{{ data }}'] } }))) as TokenView;

  it('finds a token by its data through the blind index (exact, case-sensitive), never another tenant’s, and audits the search', async () => {
    const hit = await make(p, 'find-me');
    await make(p, 'something-else');
    const other = principalOf(await insertTenant(ctx.sql), { permissions: ['token:create', 'token:search', 'token:use'] });
    await make(other, 'find-me');

    const page = await runAsCaller(p, () => search.execute({ query: 'data:find-me' }));
    expect(page.data.map((t) => t.id)).toEqual([hit.id]);
    expect(page.data[0].data).toBe('find-me');
    expect((await runAsCaller(p, () => search.execute({ query: 'data:FIND-ME' }))).data).toEqual([]);
    // the stored index row is a digest, not the value
    const digests = (await ctx.sql.query('SELECT digest FROM token_search_indexes WHERE tenant_id = $1 AND token_id = $2', [tenant, hit.id])).rows;
    expect(digests).toHaveLength(1);
    expect(digests[0].digest).not.toContain('find-me');
    const audited = await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND operation = 'search'`, [tenant]);
    expect(audited.rows[0].n).toBe(2);
  });

  it('refuses a malformed query with a 400, and a search whose deadline has passed with a 504', async () => {
    expect((await problemOf(runAsCaller(p, () => search.execute({})))).status).toBe(400);
    expect((await problemOf(runAsCaller(p, () => search.execute({ query: 'data:x' }, performance.now() - 1)))).status).toBe(504);
  });
});
