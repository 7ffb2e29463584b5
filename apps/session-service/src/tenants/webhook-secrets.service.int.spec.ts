import { AuditTrail, RecordedWrites } from '@coffer/operations';
import { insertTenant, startIntegration, withAuditRefused, type IntegrationContext } from '@coffer/testing/integration';
import { WebhookSecretRepository } from './webhook-secret.repository';
import { WebhookSecretsService } from './webhook-secrets.service';

/** A tenant's webhook signing secret against PostgreSQL: created once however many ask first, rotated with overlap. */
describe('WebhookSecretsService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let secrets: WebhookSecretsService;
  const current = async (tenantId: string) =>
    (await ctx.sql.query('SELECT count(*)::int AS n FROM webhook_secrets WHERE tenant_id = $1 AND retires_at IS NULL', [tenantId])).rows[0].n as number;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [WebhookSecretRepository, WebhookSecretsService, AuditTrail, RecordedWrites] });
    secrets = ctx.get(WebhookSecretsService);
  });
  afterAll(() => ctx?.close());

  it('creates one secret when several callers ask for the first time at once (the API and the dispatcher signing)', async () => {
    const tenant = await insertTenant(ctx.sql);
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => secrets.current(tenant).then((s) => s.secret)),
      ...Array.from({ length: 6 }, () => secrets.signing(tenant).then((s) => s[0])),
    ]);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/^whsec_/);
    expect(await current(tenant)).toBe(1);
    expect((await secrets.current(tenant)).secret).toBe(answers[0]);
  });

  it('rotates: a new current secret, the previous one signing beside it; rotations and first reads never leave two current', async () => {
    const tenant = await insertTenant(ctx.sql);
    const first = (await secrets.current(tenant)).secret;
    const [rotated] = await Promise.all([secrets.rotate(tenant), secrets.current(tenant), secrets.signing(tenant)]);
    expect(rotated.secret).not.toBe(first);
    expect((await secrets.current(tenant)).secret).toBe(rotated.secret);
    expect(await secrets.signing(tenant)).toEqual([rotated.secret, first]);
    expect(await current(tenant)).toBe(1);
  });

  it('a rotation whose audit record cannot be written does not happen: the current secret stays, nothing retired', async () => {
    const tenant = await insertTenant(ctx.sql);
    const first = (await secrets.current(tenant)).secret;
    await withAuditRefused(ctx.sql, () => expect(secrets.rotate(tenant)).rejects.toThrow(/audit refused/));
    expect((await secrets.current(tenant)).secret).toBe(first);
    expect(await secrets.signing(tenant)).toEqual([first]);
  });

  it('two rotations at once both succeed, one after the other: one current secret, the others signing beside it', async () => {
    const tenant = await insertTenant(ctx.sql);
    const first = (await secrets.current(tenant)).secret;
    const [a, b] = await Promise.all([secrets.rotate(tenant), secrets.rotate(tenant)]);
    expect(a.secret).not.toBe(b.secret);
    const now = (await secrets.current(tenant)).secret;
    expect([a.secret, b.secret]).toContain(now);
    expect(new Set(await secrets.signing(tenant))).toEqual(new Set([first, a.secret, b.secret]));
    expect(await current(tenant)).toBe(1);
  });

  it("a webhook's own secret (webhook-dispatcher's row) is never the tenant's: not read, not signing, not retired by a rotation", async () => {
    const tenant = await insertTenant(ctx.sql);
    const webhookId = '6f1d2c3b-4a59-4687-9786-a5b4c3d2e1f0';
    // written first, so a tenant lookup that did not tell the two apart would find it (and fail to open it)
    await ctx.sql.query(`INSERT INTO webhook_secrets (id, tenant_id, webhook_id, ciphertext) VALUES (gen_random_uuid(), $1, $2, '\\x00')`, [tenant, webhookId]);
    const first = (await secrets.current(tenant)).secret;
    expect(await secrets.signing(tenant)).toEqual([first]);
    await secrets.rotate(tenant);
    const endpoint = await ctx.sql.query('SELECT retires_at FROM webhook_secrets WHERE webhook_id = $1', [webhookId]);
    expect(endpoint.rows).toEqual([{ retires_at: null }]);
    expect(await secrets.signing(tenant)).toHaveLength(2);
  });
});
