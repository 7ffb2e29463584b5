import type { Principal, TokenIntentView, TokenView } from '@coffer/contracts';
import { SqlPool } from '@coffer/db';
import { IdempotentWrites } from '@coffer/idempotency';
import { TenantSettingsClient } from '@coffer/bus';
import { fakeTenantSettings, insertTenant, principalOf, problemOf, startIntegration, type IntegrationContext, runAsCaller } from '@coffer/testing/integration';
import { AuditRepository } from '../audit/audit.repository';
import { TokenRepository } from '../tokens/token.repository';
import { TokenVault } from '../tokens/token-vault';
import { CreateTokenUseCase } from '../tokens/create/create-token.use-case';
import { TokenInserts } from '../tokens/create/token-inserts';
import { ExpirySweeper } from '../tokens/expiry-sweeper';
import { TokenIntentRepository } from './token-intent.repository';
import { TokenIntentsUseCase } from './token-intents.use-case';
import { ConvertTokenIntentUseCase } from './convert-token-intent.use-case';

/** `fn` run as an operation of `principal`, as the operation dispatcher runs a handler (caller(), currentTraceId()) */
const CARD = { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' };

/**
 * Token intents against PostgreSQL and the real keyring: what a row holds, the conversion's transaction, expiry and
 * the sweep. The tenant's `deduplicate_tokens` comes from session-service in production; here fakeTenantSettings.
 */
describe('token intents (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let intents: TokenIntentsUseCase;
  let convert: ConvertTokenIntentUseCase;
  let vault: TokenVault;
  let tenant: string;
  let front: Principal;
  let back: Principal;

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
          TenantSettingsClient,
          TokenIntentRepository,
          TokenIntentsUseCase,
          ConvertTokenIntentUseCase,
        ],
      },
      [{ provide: TenantSettingsClient, useValue: fakeTenantSettings() }],
    );
    intents = ctx.get(TokenIntentsUseCase);
    convert = ctx.get(ConvertTokenIntentUseCase);
    vault = ctx.get(TokenVault);
    tenant = await insertTenant(ctx.sql);
    front = principalOf(tenant, { type: 'public', permissions: ['token-intent:create'] });
    back = principalOf(tenant, { permissions: ['token-intent:read', 'token-intent:delete', 'token:create', 'token:read', 'token:use'] });
  });
  afterAll(() => ctx?.close());

  const rowOf = async (id: string) => (await ctx.sql.query('SELECT * FROM token_intents WHERE tenant_id = $1 AND id = $2', [tenant, id])).rows[0];
  const tokensWith = async (fingerprint: string) =>
    (await ctx.sql.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1 AND fingerprint = $2', [tenant, fingerprint])).rows[0].n as number;

  it('stores the data encrypted, bound to the intent id; the view has details, never data', async () => {
    const view = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }));
    expect(view.card).toEqual({ bin: '42424242', last4: '4242', expiration_month: 12, expiration_year: 2030, brand: 'visa' });
    const row = await rowOf(view.id);
    expect(JSON.stringify(row)).not.toContain(CARD.number);
    expect(Buffer.from(row.data_ciphertext).toString('latin1')).not.toContain(CARD.number);
    expect(await vault.decryptIntent(tenant, view.id, row.data_key_id, row.data_ciphertext)).toEqual(CARD);
    // not a token's ciphertext: the AAD names the intent
    await expect(vault.decrypt(tenant, view.id, row.data_key_id, row.data_ciphertext)).rejects.toThrow();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(24 * 60 * 60 * 1000);
    expect(JSON.stringify(await runAsCaller(back, () => intents.get(view.id)))).not.toContain(CARD.number);
  });

  it('a create and a delete each commit their event with the change: the view (never data), then the id', async () => {
    const view = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }), 't-ev');
    await runAsCaller(back, () => intents.delete(view.id), 't-ev');
    const events = (
      await ctx.sql.query("SELECT type, event FROM event_outbox WHERE tenant_id = $1 AND event->'data'->'token_intent'->>'id' = $2 ORDER BY type", [
        tenant,
        view.id,
      ])
    ).rows;
    expect(events.map((e) => e.type)).toEqual(['token-intent.created', 'token-intent.deleted']);
    expect(events[0].event.data.token_intent).toMatchObject({ id: view.id, type: 'card', card: { last4: '4242' } });
    expect(JSON.stringify(events)).not.toContain(CARD.number);
    expect(events[1].event.data.token_intent).toEqual({ id: view.id });
  });

  it('a refused create stores nothing', async () => {
    const before = (await ctx.sql.query('SELECT count(*)::int AS n FROM token_intents WHERE tenant_id = $1', [tenant])).rows[0].n;
    const problem = await problemOf(runAsCaller(front, () => intents.create({ type: 'card', data: { number: '4242424242424241' } })));
    expect(problem.status).toBe(400);
    expect(Object.keys(problem.errors ?? {})).toEqual(['data.number']);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM token_intents WHERE tenant_id = $1', [tenant])).rows[0].n).toBe(before);
  });

  it('conversion writes the token and marks the intent in one transaction; a failed write leaves the intent as it was', async () => {
    const intent: TokenIntentView = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }));
    // a literal id that is taken: the token write fails (409) after the intent was consumed in the same transaction
    await runAsCaller(back, () => convert.execute({ body: { type: 'token', data: 'x', id: 'taken-id' } }));
    const clash = await problemOf(runAsCaller(back, () => convert.execute({ body: { token_intent_id: intent.id, id: 'taken-id' } })));
    expect(clash.status).toBe(409);
    const untouched = await rowOf(intent.id);
    expect(untouched.converted_at).toBeNull();
    expect(untouched.data_ciphertext).not.toBeNull();

    const token = (await runAsCaller(back, () => convert.execute({ body: { token_intent_id: intent.id } }))) as TokenView;
    expect(token).toMatchObject({ type: 'card', fingerprint: intent.fingerprint });
    const marker = await rowOf(intent.id);
    expect(marker).toMatchObject({ data_ciphertext: null, data_key_id: null });
    expect(marker.converted_at).toBeInstanceOf(Date);
    expect(await tokensWith(intent.fingerprint)).toBe(1);

    const again = await problemOf(runAsCaller(back, () => convert.execute({ body: { token_intent_id: intent.id } })));
    expect(again.status).toBe(409);
    expect((await problemOf(runAsCaller(back, () => intents.get(intent.id)))).status).toBe(404);
    expect((await problemOf(runAsCaller(back, () => intents.delete(intent.id)))).status).toBe(404);
    expect(await tokensWith(intent.fingerprint)).toBe(1);
  });

  it('concurrent conversions of one intent make one token', async () => {
    const intent = await runAsCaller(front, () => intents.create({ type: 'social_security_number', data: '111-22-3333' }));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => runAsCaller(back, () => convert.execute({ body: { token_intent_id: intent.id } }))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected'))
      expect((o.reason as { problem: { status: number } }).problem.status).toBe(409);
    expect(await tokensWith(intent.fingerprint)).toBe(1);
  });

  it('tenants are apart: another tenant neither reads, deletes nor converts an intent', async () => {
    const intent = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }));
    const other = await insertTenant(ctx.sql);
    const stranger = principalOf(other, { permissions: ['token-intent:read', 'token-intent:delete', 'token:create'] });
    expect((await problemOf(runAsCaller(stranger, () => intents.get(intent.id)))).status).toBe(404);
    expect((await problemOf(runAsCaller(stranger, () => intents.delete(intent.id)))).status).toBe(404);
    expect((await problemOf(runAsCaller(stranger, () => convert.execute({ body: { token_intent_id: intent.id } })))).status).toBe(404);
    expect((await runAsCaller(back, () => intents.get(intent.id))).id).toBe(intent.id);
  });

  it('an expired intent is gone at once, and the sweep deletes expired intents and markers', async () => {
    const expired = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }));
    const converted = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }));
    await runAsCaller(back, () => convert.execute({ body: { token_intent_id: converted.id } }));
    const live = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }));
    await ctx.sql.query(`UPDATE token_intents SET expires_at = now() - interval '1 second' WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [
      tenant,
      [expired.id, converted.id],
    ]);
    expect((await problemOf(runAsCaller(back, () => intents.get(expired.id)))).status).toBe(404);
    expect((await problemOf(runAsCaller(back, () => convert.execute({ body: { token_intent_id: expired.id } })))).status).toBe(404);
    // an expired marker: the intent is simply gone (404), no longer "already converted"
    expect((await problemOf(runAsCaller(back, () => convert.execute({ body: { token_intent_id: converted.id } })))).status).toBe(404);

    // the sweeper as its timer calls it (built here without the timer: the test decides when it runs)
    const sweeper = new ExpirySweeper(ctx.get(TokenRepository), ctx.get(SqlPool), ctx.get(TokenIntentRepository));
    expect(await sweeper.sweep()).toBeGreaterThanOrEqual(2);
    expect(await rowOf(expired.id)).toBeUndefined();
    expect(await rowOf(converted.id)).toBeUndefined();
    expect(await rowOf(live.id)).toBeDefined();
  });

  it('audits create, read, delete and convert, never with data', async () => {
    const intent = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }), 'trace-c');
    await runAsCaller(back, () => intents.get(intent.id), 'trace-r');
    await runAsCaller(back, () => convert.execute({ body: { token_intent_id: intent.id } }), 'trace-v');
    const gone = await runAsCaller(front, () => intents.create({ type: 'card', data: CARD }), 'trace-c2');
    await runAsCaller(back, () => intents.delete(gone.id), 'trace-d');
    const records = (
      await ctx.sql.query(
        `SELECT entity_id, operation, actor_application_id, trace_id, changes FROM audit_events WHERE tenant_id = $1 AND entity_type = 'token_intent' AND entity_id = ANY($2)`,
        [tenant, [intent.id, gone.id]],
      )
    ).rows;
    expect(records.map((r) => `${r.entity_id === intent.id ? 'intent' : 'gone'} ${r.operation} ${r.trace_id}`).sort()).toEqual([
      'gone create trace-c2',
      'gone delete trace-d',
      'intent convert trace-v',
      'intent create trace-c',
      'intent read trace-r',
    ]);
    expect(JSON.stringify(records)).not.toContain(CARD.number);
  });
});
