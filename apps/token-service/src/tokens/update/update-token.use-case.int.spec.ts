import { SUBJECTS, unwrapIdempotentReplay, type Principal, type TokenView } from '@coffer/contracts';
import { IdempotentWrites, type IdempotentRequest } from '@coffer/idempotency';
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
  withAuditRefused,
} from '@coffer/testing/integration';
import { AuditRepository } from '../../audit/audit.repository';
import { TokenRepository } from '../token.repository';
import { TokenVault } from '../token-vault';
import { CreateTokenUseCase } from '../create/create-token.use-case';
import { TokenInserts } from '../create/token-inserts';
import { DeleteTokenUseCase } from '../delete-token.use-case';
import { UpdateTokenUseCase } from './update-token.use-case';

/** `fn` run as an operation of `principal`, as the operation dispatcher runs a handler (caller(), currentTraceId()) */
/** PATCH (and DELETE's audit) semantics against PostgreSQL; the tenant settings call to session-service is an in-process fake (no NATS). */
describe('UpdateTokenUseCase (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let create: CreateTokenUseCase;
  let update: UpdateTokenUseCase;
  /** an idempotent update as the operation dispatcher runs it (OPS.token.tokens.update: transaction mode) */
  const updateIdempotently = (principal: Principal, id: string, patch: unknown, request: IdempotentRequest) =>
    runAsCaller(principal, () =>
      ctx.get(IdempotentWrites).perform({ mode: 'transaction', request, codec: update.replayCodec(id) }, () => update.execute({ id, patch })),
    );
  const settings = fakeTenantSettings();
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
          UpdateTokenUseCase,
          DeleteTokenUseCase,
          TenantSettingsClient,
        ],
      },
      [{ provide: TenantSettingsClient, useValue: settings }],
    );
    create = ctx.get(CreateTokenUseCase);
    update = ctx.get(UpdateTokenUseCase);
    tenant = await insertTenant(ctx.sql);
    owner = principalOf(tenant, { permissions: ['token:create', 'token:read', 'token:update', 'token:use'] });
  });
  afterAll(() => ctx?.close());

  const newToken = async (body: Record<string, unknown> = {}) =>
    (await runAsCaller(owner, () => create.execute({ body: { type: 'token', data: { a: 1, b: 2 }, ...body } }))) as TokenView;
  const stored = async (id: string) => {
    const row = (await ctx.sql.query('SELECT * FROM tokens WHERE tenant_id = $1 AND id = $2', [tenant, id])).rows[0];
    return { row, data: await ctx.get(TokenVault).decrypt(tenant, id, row.data_key_id, row.data_ciphertext) };
  };

  it('merges data and metadata (RFC 7386), re-encrypts, replaces the search digests, and audits the update', async () => {
    const t = await newToken({ metadata: { keep: 'k', drop: 'd' }, search_indexes: ['{{ data.a }}'] });
    const digestsBefore = (await ctx.sql.query('SELECT digest FROM token_search_indexes WHERE tenant_id = $1 AND token_id = $2', [tenant, t.id])).rows;
    const view = (await runAsCaller(owner, () =>
      update.execute({ id: t.id, patch: { data: { a: 10, b: null, c: 3 }, metadata: { drop: null, added: 'x' } } }),
    )) as TokenView;
    expect(view.metadata).toEqual({ keep: 'k', added: 'x' });
    const { row, data } = await stored(t.id);
    expect(data).toEqual({ a: 10, c: 3 });
    expect(row.modified_by).toBe(owner.applicationId);
    expect(row.fingerprint).not.toBe(t.fingerprint);
    const digestsAfter = (await ctx.sql.query('SELECT digest FROM token_search_indexes WHERE tenant_id = $1 AND token_id = $2', [tenant, t.id])).rows;
    expect(digestsAfter).toHaveLength(1);
    expect(digestsAfter).not.toEqual(digestsBefore);
    const audit = await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND entity_id = $2 AND operation = 'update'`, [
      tenant,
      t.id,
    ]);
    expect(audit.rows[0].n).toBe(1);
  });

  it('refuses what may not change (400), another tenant’s token (404), and exposure changes without reveal (403); nothing changes', async () => {
    const t = await newToken();
    expect((await problemOf(runAsCaller(owner, () => update.execute({ id: t.id, patch: { type: 'card', nope: 1 } })))).errors).toEqual(
      expect.objectContaining({ type: expect.any(Array), nope: expect.any(Array) }),
    );
    const stranger = principalOf(await insertTenant(ctx.sql), { permissions: ['token:update', 'token:use'] });
    expect((await problemOf(runAsCaller(stranger, () => update.execute({ id: t.id, patch: { data: { a: 9 } } })))).status).toBe(404);
    const updateOnly = principalOf(tenant, { permissions: ['token:update'] });
    expect((await problemOf(runAsCaller(updateOnly, () => update.execute({ id: t.id, patch: { mask: '{{ data }}' } })))).status).toBe(403);
    const { row, data } = await stored(t.id);
    expect(data).toEqual({ a: 1, b: 2 });
    expect(row.modified_at).toBeNull();
  });

  it('with an idempotency key: the update and its record commit together, and a retry replays without writing again', async () => {
    const t = await newToken();
    const patch = { metadata: { n: '1' } };
    const req = idempotentRequest(SUBJECTS.token.tokens.update, { principal: owner, traceId: 't', idempotencyKey: 'upd-1', body: { id: t.id, patch } });
    await updateIdempotently(owner, t.id, patch, req);
    const first = await stored(t.id);
    const records = await ctx.sql.query('SELECT route FROM idempotency_records WHERE tenant_id = $1 AND key = $2', [tenant, 'upd-1']);
    expect(records.rows).toEqual([{ route: SUBJECTS.token.tokens.update }]);
    const again = await updateIdempotently(owner, t.id, patch, req);
    expect(unwrapIdempotentReplay(again)?.body).toMatchObject({ id: t.id, metadata: { n: '1' } });
    expect((await stored(t.id)).row.modified_at).toEqual(first.row.modified_at);
  });

  it('a failed update with an idempotency key records nothing: the key stays free for the corrected request', async () => {
    const t = await newToken();
    const patch = { expires_at: 'not a date' };
    const req = idempotentRequest(SUBJECTS.token.tokens.update, { principal: owner, traceId: 't', idempotencyKey: 'upd-bad', body: { id: t.id, patch } });
    expect((await problemOf(updateIdempotently(owner, t.id, patch, req))).status).toBe(400);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM idempotency_records WHERE tenant_id = $1 AND key = $2', [tenant, 'upd-bad'])).rows[0].n).toBe(
      0,
    );
  });

  it('deduplicating: an update that makes the token equal to another answers with the other and changes nothing', async () => {
    const t2 = await insertTenant(ctx.sql);
    settings.settings.set(t2, { deduplicate_tokens: true });
    const p = principalOf(t2, { permissions: ['token:create', 'token:read', 'token:update', 'token:use'] });
    const a = (await runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'A' } }))) as TokenView;
    const b = (await runAsCaller(p, () => create.execute({ body: { type: 'token', data: 'B' } }))) as TokenView;
    const view = (await runAsCaller(p, () => update.execute({ id: b.id, patch: { data: 'A' } }))) as TokenView;
    expect(view.id).toBe(a.id);
    const row = (await ctx.sql.query('SELECT data_key_id, data_ciphertext FROM tokens WHERE tenant_id = $1 AND id = $2', [t2, b.id])).rows[0];
    expect(await ctx.get(TokenVault).decrypt(t2, b.id, row.data_key_id, row.data_ciphertext)).toBe('B');
  });

  it('an update or a delete whose audit record cannot be written does not happen: the token stays as it was', async () => {
    const t = await newToken({ metadata: { v: '1' } });
    const before = await stored(t.id);
    const caller = principalOf(tenant, { permissions: ['token:update', 'token:delete'] });
    await withAuditRefused(ctx.sql, async () => {
      await expect(runAsCaller(caller, () => update.execute({ id: t.id, patch: { data: { a: 99 }, metadata: { v: '2' } } }))).rejects.toThrow(/audit refused/);
      await expect(runAsCaller(caller, () => ctx.get(DeleteTokenUseCase).execute(t.id))).rejects.toThrow(/audit refused/);
    });
    const after = await stored(t.id);
    expect(after.data).toEqual(before.data);
    expect(after.row.metadata).toEqual({ v: '1' });
    const events = await ctx.sql.query(
      `SELECT type FROM event_outbox WHERE tenant_id = $1 AND event->'data'->'token'->>'id' = $2 AND type <> 'token.created'`,
      [tenant, t.id],
    );
    expect(events.rows).toEqual([]);
  });
});
