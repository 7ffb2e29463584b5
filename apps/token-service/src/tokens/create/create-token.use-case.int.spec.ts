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
import { CreateTokenUseCase } from './create-token.use-case';

/**
 * Creating tokens against PostgreSQL and the real keyring. The tenant's `deduplicate_tokens` setting comes from
 * session-service over NATS in production; here an in-process fake of that one call (fakeTenantSettings) answers it.
 */
describe('CreateTokenUseCase (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let create: CreateTokenUseCase;
  /** an idempotent create as the operation dispatcher runs it (OPS.token.tokens.create: transaction mode, recorded by the use case) */
  const createIdempotently = (principal: Principal, body: unknown, request: IdempotentRequest) =>
    ctx
      .get(IdempotentWrites)
      .perform({ mode: 'transaction', request, recordsItself: true, codec: create.replayCodec(principal, body) }, (write) =>
        create.execute({ principal, traceId: 't', body, idempotency: write }),
      );
  let vault: TokenVault;
  const settings = fakeTenantSettings();
  let tenant: string;
  let writer: Principal;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [IdempotentWrites, AuditRepository, TokenRepository, TokenVault, CreateTokenUseCase, TenantSettingsClient] }, [
      { provide: TenantSettingsClient, useValue: settings },
    ]);
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
    const view = (await create.execute({
      principal: writer,
      traceId: 't',
      body: { type: 'token', data: 'plaintext-4242', metadata: { a: 'b' } },
    })) as TokenView;
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
    const view = (await create.execute({
      principal: createOnly,
      traceId: 't',
      body: { type: 'token', data: 'secret', mask: '{{ data | slice: 0, 2 }}' },
    })) as TokenView;
    expect(view.data).toBe('se');
  });

  it('refuses bad fields with a 400 naming each field, a literal id in use with a 409, a foreign container with a 403; none writes', async () => {
    const before = (await rowsOf(tenant)).length;
    const bad = await problemOf(create.execute({ principal: writer, traceId: 't', body: { type: 'nope', data: null } }));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.errors ?? {})).toEqual(expect.arrayContaining(['type', 'data']));

    await create.execute({ principal: writer, traceId: 't', body: { id: 'literal-id-1', type: 'token', data: 'x' } });
    expect((await problemOf(create.execute({ principal: writer, traceId: 't', body: { id: 'literal-id-1', type: 'token', data: 'y' } }))).status).toBe(409);

    const confined = principalOf(tenant, { rules: [{ priority: 1, container: '/mine/', transform: 'reveal', permissions: ['token:create'] }] });
    expect((await problemOf(create.execute({ principal: confined, traceId: 't', body: { type: 'token', data: 'z', containers: ['/other/'] } }))).status).toBe(
      403,
    );
    expect((await rowsOf(tenant)).length).toBe(before + 1);
  });

  it('deduplicates equal data when the tenant asks for it, per tenant, unless the request opts out', async () => {
    const t = await insertTenant(ctx.sql);
    const other = await insertTenant(ctx.sql);
    settings.settings.set(t, { deduplicate_tokens: true });
    settings.settings.set(other, { deduplicate_tokens: true });
    const p = principalOf(t, { permissions: ['token:create', 'token:read', 'token:use'] });
    const first = (await create.execute({ principal: p, traceId: 't', body: { type: 'token', data: 'same' } })) as TokenView;
    const second = (await create.execute({ principal: p, traceId: 't', body: { type: 'token', data: 'same' } })) as TokenView;
    expect(second.id).toBe(first.id);
    expect(second.data).toBe('same');
    expect((await rowsOf(t)).length).toBe(1);
    // only the first was a create
    expect(await auditOf(t, first.id)).toHaveLength(1);

    const optedOut = (await create.execute({ principal: p, traceId: 't', body: { type: 'token', data: 'same', deduplicate_token: false } })) as TokenView;
    expect(optedOut.id).not.toBe(first.id);

    // another tenant's equal data is its own token: fingerprints are keyed per tenant
    const elsewhere = (await create.execute({
      principal: principalOf(other, { permissions: ['token:create', 'token:read', 'token:use'] }),
      traceId: 't',
      body: { type: 'token', data: 'same' },
    })) as TokenView;
    expect(elsewhere.id).not.toBe(first.id);
    expect(elsewhere.fingerprint).not.toBe(first.fingerprint);

    // a deduplicated token is shown to a caller who may not read it in the limited view only
    const blind = (await create.execute({
      principal: principalOf(t, { permissions: ['token:create'] }),
      traceId: 't',
      body: { type: 'token', data: 'same' },
    })) as TokenView;
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
    const replies = await Promise.all([1, 2, 3].map(() => createIdempotently(p, body, req)));
    const ids = replies.map((r) => (unwrapIdempotentReplay(r)?.body ?? r) as TokenView).map((v) => v.id);
    expect(new Set(ids).size).toBe(1);
    expect((await rowsOf(t)).length).toBe(1);

    settings.settings.set(t, { deduplicate_tokens: true });
    const deduped = (await Promise.all(
      [1, 2, 3].map(() => create.execute({ principal: p, traceId: 't', body: { type: 'token', data: 'same-race' } })),
    )) as TokenView[];
    expect(new Set(deduped.map((v) => v.id)).size).toBe(1);
    expect((await rowsOf(t)).length).toBe(2);
  });

  it('stores the expiry; a token past it is invisible', async () => {
    const future = new Date(Date.now() + 3600_000).toISOString();
    const view = (await create.execute({ principal: writer, traceId: 't', body: { type: 'token', data: 'e', expires_at: future } })) as TokenView;
    expect(view.expires_at).toBe(future);
    expect((await problemOf(create.execute({ principal: writer, traceId: 't', body: { type: 'token', data: 'e', expires_at: '2001-01-01' } }))).status).toBe(
      400,
    );
    await ctx.sql.query(`UPDATE tokens SET expires_at = now() - interval '1 second' WHERE tenant_id = $1 AND id = $2`, [tenant, view.id]);
    expect(await ctx.get(TokenRepository).find(tenant, view.id)).toBeNull();
  });
  it('gives a deleted tenant no new key: a write (a caller the gateway still caches) is a 401, no key and no row are created', async () => {
    const shredded = await insertTenant(ctx.sql);
    await ctx.sql.query('UPDATE tenants SET deleted_at = now() WHERE id = $1', [shredded]);
    const late = principalOf(shredded, { permissions: ['token:create'] });
    const refused = await problemOf(create.execute({ principal: late, traceId: 't', body: { type: 'token', data: 'after the delete' } }));
    expect(refused.status).toBe(401);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM tenant_keys WHERE tenant_id = $1', [shredded])).rows[0].n).toBe(0);
    expect(await rowsOf(shredded)).toEqual([]);
  });
});
