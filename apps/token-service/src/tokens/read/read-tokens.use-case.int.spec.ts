import type { Principal, TokenView } from '@coffer/contracts';
import { IdempotentWrites } from '@coffer/idempotency';
import { TenantSettingsClient } from '@coffer/bus';
import { fakeTenantSettings, insertTenant, principalOf, problemOf, startIntegration, type IntegrationContext, runAsCaller } from '@coffer/testing/integration';
import { AuditRepository } from '../../audit/audit.repository';
import { TokenRepository } from '../token.repository';
import { TokenVault } from '../token-vault';
import { CreateTokenUseCase } from '../create/create-token.use-case';
import { TokenInserts } from '../create/token-inserts';
import { DeleteTokenUseCase } from '../delete-token.use-case';
import { ReadTokensUseCase } from './read-tokens.use-case';
import { TokenReads } from './token-reads';

/** `fn` run as an operation of `principal`, as the operation dispatcher runs a handler (caller(), currentTraceId()) */
/** Reads (and delete) against PostgreSQL: what a caller sees of a row, and the audit trail each read leaves. */
describe('ReadTokensUseCase and DeleteTokenUseCase (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let create: CreateTokenUseCase;
  let read: ReadTokensUseCase;
  let remove: DeleteTokenUseCase;
  let tenant: string;
  let owner: Principal;

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
          TokenReads,
          ReadTokensUseCase,
          DeleteTokenUseCase,
          TenantSettingsClient,
        ],
      },
      // creates look up the tenant's dedup setting in session-service: an in-process fake here (no NATS)
      [{ provide: TenantSettingsClient, useValue: fakeTenantSettings() }],
    );
    create = ctx.get(CreateTokenUseCase);
    read = ctx.get(ReadTokensUseCase);
    remove = ctx.get(DeleteTokenUseCase);
    tenant = await insertTenant(ctx.sql);
    owner = principalOf(tenant, { permissions: ['token:create', 'token:read', 'token:use', 'token:delete'] });
  });
  afterAll(() => ctx?.close());

  const reads = async (id: string) =>
    (await ctx.sql.query(`SELECT actor_application_id FROM audit_events WHERE tenant_id = $1 AND entity_id = $2 AND operation = 'read'`, [tenant, id])).rows;

  it('reveals, masks or redacts by the caller’s grants, and audits every allowed read (never a refused one)', async () => {
    const t = (await runAsCaller(owner, () => create.execute({ body: { type: 'token', data: 'abcdef', mask: '{{ data | slice: 0, 2 }}' } }))) as TokenView;
    expect((await runAsCaller(owner, () => read.get(t.id))).data).toBe('abcdef');
    const masker = principalOf(tenant, { permissions: ['token:read'] });
    expect((await runAsCaller(masker, () => read.get(t.id))).data).toBe('ab');
    const redacted = principalOf(tenant, { rules: [{ priority: 1, container: '/', transform: 'redact', permissions: ['token:read'] }] });
    expect((await runAsCaller(redacted, () => read.get(t.id))).data).toBeUndefined();
    const denied = principalOf(tenant, { rules: [{ priority: 1, container: '/elsewhere/', transform: 'reveal', permissions: ['token:read'] }] });
    expect((await problemOf(runAsCaller(denied, () => read.get(t.id)))).status).toBe(403);
    expect((await reads(t.id)).map((r: { actor_application_id: string }) => r.actor_application_id).sort()).toEqual(
      [owner.applicationId, masker.applicationId, redacted.applicationId].sort(),
    );
  });

  it('reads that arrive together share one statement: each allowed read is audited once, by whoever decided it, and no refused one', async () => {
    const made = (await Promise.all(
      [1, 2, 3].map((i) => runAsCaller(owner, () => create.execute({ body: { type: 'token', data: `batched-${i}`, mask: '{{ data | slice: 0, 2 }}' } }))),
    )) as TokenView[];
    const plain = principalOf(tenant, { permissions: ['token:read'] });
    const ruled = principalOf(tenant, { rules: [{ priority: 1, container: '/', transform: 'reveal', permissions: ['token:read'] }] });
    const denied = principalOf(tenant, { rules: [{ priority: 1, container: '/elsewhere/', transform: 'reveal', permissions: ['token:read'] }] });
    const stranger = principalOf(await insertTenant(ctx.sql), { permissions: ['token:read'] });
    const attempts = [
      ...made.map((t) => ({ p: owner, id: t.id })),
      ...made.map((t) => ({ p: plain, id: t.id })),
      { p: ruled, id: made[0].id },
      { p: denied, id: made[1].id },
      { p: stranger, id: made[2].id },
      { p: owner, id: 'no-such-token' },
      { p: owner, id: made[0].id },
    ];
    const results = await Promise.all(
      attempts.map((a) =>
        runAsCaller(a.p, () => read.get(a.id), 'batch').then(
          (v) => v.data,
          (err: unknown) => problemOf(Promise.reject(err)).then((p) => p.status),
        ),
      ),
    );
    expect(results).toEqual(['batched-1', 'batched-2', 'batched-3', 'ba', 'ba', 'ba', 'batched-1', 403, 404, 404, 'batched-1']);
    const actors = async (id: string) => (await reads(id)).map((r: { actor_application_id: string }) => r.actor_application_id).sort();
    expect(await actors(made[0].id)).toEqual([owner.applicationId, owner.applicationId, plain.applicationId, ruled.applicationId].sort());
    expect(await actors(made[1].id)).toEqual([owner.applicationId, plain.applicationId].sort());
    expect(await actors(made[2].id)).toEqual([owner.applicationId, plain.applicationId].sort());
    const traces = await ctx.sql.query(`SELECT DISTINCT trace_id FROM audit_events WHERE tenant_id = $1 AND entity_id = ANY($2) AND operation = 'read'`, [
      tenant,
      made.map((t) => t.id),
    ]);
    expect(traces.rows).toEqual([{ trace_id: 'batch' }]);
  });

  it('never shows another tenant’s token: 404 on get, absent from lists', async () => {
    const t = (await runAsCaller(owner, () => create.execute({ body: { type: 'token', data: 'mine' } }))) as TokenView;
    const stranger = principalOf(await insertTenant(ctx.sql), { permissions: ['token:read', 'token:use', 'token:delete'] });
    expect((await problemOf(runAsCaller(stranger, () => read.get(t.id)))).status).toBe(404);
    expect((await runAsCaller(stranger, () => read.list({}))).data).toEqual([]);
    expect((await problemOf(runAsCaller(stranger, () => remove.execute(t.id)))).status).toBe(404);
    expect((await runAsCaller(owner, () => read.get(t.id))).data).toBe('mine');
  });

  it('lists newest first with a total, filtered by type and metadata, and audits each token listed', async () => {
    const t2 = await insertTenant(ctx.sql);
    const p = principalOf(t2, { permissions: ['token:create', 'token:read', 'token:use'] });
    const ids: string[] = [];
    for (const [i, colour] of ['red', 'blue', 'Red'].entries()) {
      ids.push(((await runAsCaller(p, () => create.execute({ body: { type: 'token', data: `v${i}`, metadata: { colour } } }))) as TokenView).id);
      // creation times are milliseconds: two creates in the same one would tie, and a tie is ordered by id
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const page = await runAsCaller(p, () => read.list({ size: '2' }));
    expect(page.data.map((v) => v.id)).toEqual([ids[2], ids[1]]);
    expect(page.pagination).toMatchObject({ total_items: 3 });
    const red = await runAsCaller(p, () => read.list({ 'metadata.colour': 'RED' }));
    expect(red.data.map((v) => v.data).sort()).toEqual(['v0', 'v2']);
    const audited = await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND operation = 'read'`, [t2]);
    expect(audited.rows[0].n).toBe(4);
  });

  it('deletes: the row and its search digests go, the delete is audited, a second delete is a 404', async () => {
    const t = (await runAsCaller(owner, () => create.execute({ body: { type: 'token', data: 'bye', search_indexes: ['{{ data }}'] } }))) as TokenView;
    const noDelete = principalOf(tenant, { permissions: ['token:read'] });
    expect((await problemOf(runAsCaller(noDelete, () => remove.execute(t.id)))).status).toBe(403);
    await runAsCaller(owner, () => remove.execute(t.id));
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1 AND id = $2', [tenant, t.id])).rows[0].n).toBe(0);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM token_search_indexes WHERE tenant_id = $1 AND token_id = $2', [tenant, t.id])).rows[0].n).toBe(
      0,
    );
    const deletes = await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND entity_id = $2 AND operation = 'delete'`, [
      tenant,
      t.id,
    ]);
    expect(deletes.rows[0].n).toBe(1);
    expect((await problemOf(runAsCaller(owner, () => remove.execute(t.id)))).status).toBe(404);
    expect((await problemOf(runAsCaller(owner, () => read.get(t.id)))).status).toBe(404);
  });
});
