import { SUBJECTS, UpdateTenantRequest, validateContract } from '@coffer/contracts';
import { EventBus } from '@coffer/bus';
import { AuditTrail, RecordedWrites, withActingContext } from '@coffer/operations';
import { insertTenant, principalOf, problemOf, recordingEventBus, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { TenantRepository } from './tenant.repository';
import { TenantsService } from './tenants.service';

/** Tenant settings against PostgreSQL: defaults, partial updates that keep what they do not name, per-tenant rows. */
describe('TenantsService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let tenants: TenantsService;
  const bus = recordingEventBus();
  const announced = (tenantId: string) =>
    bus.published.filter((m) => m.subject === SUBJECTS.events.tenantSettingsChanged && (m.payload as { tenantId: string }).tenantId === tenantId).length;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [TenantRepository, TenantsService, AuditTrail, RecordedWrites, EventBus] }, [
      { provide: EventBus, useValue: bus },
    ]);
    tenants = ctx.get(TenantsService);
  });
  afterAll(() => ctx?.close());

  it('shows the defaults for a tenant that set nothing, and 404 for a tenant that does not exist', async () => {
    const id = await insertTenant(ctx.sql, {}, 'Acme');
    expect(await tenants.get(id)).toMatchObject({ id, name: 'Acme', settings: { deduplicate_tokens: false } });
    expect((await problemOf(tenants.get('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });

  it('updates one setting without touching the others or another tenant, and stamps the change', async () => {
    const a = await insertTenant(ctx.sql, {}, 'A');
    const b = await insertTenant(ctx.sql, {}, 'B');
    const egress = { allow: ['api.example.com'] };
    await withActingContext({ principal: principalOf(a) }, () => tenants.update({ settings: { reactor_egress: egress } } as never));
    const view = await withActingContext({ principal: principalOf(a) }, () => tenants.update({ settings: { deduplicate_tokens: true } } as never));
    expect(view.settings).toEqual({ deduplicate_tokens: true, reactor_egress: egress });
    expect(view.name).toBe('A');
    expect(view.modified_at).toBeDefined();
    const row = (await ctx.sql.query('SELECT settings FROM tenants WHERE id = $1', [a])).rows[0];
    expect(row.settings).toEqual({ deduplicate_tokens: true, reactor_egress: egress });
    expect((await tenants.get(b)).settings).toEqual({ deduplicate_tokens: false });
  });

  it("keeps the console's sign-in policy once set (booleans; absent until then) and records the change", async () => {
    const id = await insertTenant(ctx.sql, {}, 'Policy');
    expect((await tenants.get(id)).settings).toEqual({ deduplicate_tokens: false });
    const view = await withActingContext({ principal: principalOf(id) }, () =>
      tenants.update({ settings: { console_key_sign_in: false, console_require_mfa: true } } as never),
    );
    expect(view.settings).toEqual({ deduplicate_tokens: false, console_key_sign_in: false, console_require_mfa: true });
    const again = await withActingContext({ principal: principalOf(id) }, () => tenants.update({ settings: { console_require_mfa: false } } as never));
    expect(again.settings).toEqual({ deduplicate_tokens: false, console_key_sign_in: false, console_require_mfa: false });
    const audit = await ctx.sql.query(`SELECT changes FROM audit_events WHERE entity_type = 'tenant' AND entity_id = $1 ORDER BY created_at`, [id]);
    expect(audit.rows.map((r) => r.changes)).toEqual([
      { 'settings.console_key_sign_in': { new: false }, 'settings.console_require_mfa': { new: true } },
      { 'settings.console_require_mfa': { old: true, new: false } },
    ]);
  });

  it('announces each committed change to the services that cache settings, and nothing for a tenant that is gone', async () => {
    const id = await insertTenant(ctx.sql, {}, 'Announced');
    await withActingContext({ principal: principalOf(id) }, () => tenants.update({ settings: { deduplicate_tokens: true } } as never));
    expect(announced(id)).toBe(1);
    await withActingContext({ principal: principalOf(id) }, () => tenants.update({ name: 'Renamed' } as never));
    expect(announced(id)).toBe(2);
    const gone = '00000000-0000-4000-8000-00000000dead';
    expect(
      (await problemOf(withActingContext({ principal: principalOf(gone) }, () => tenants.update({ settings: { deduplicate_tokens: true } } as never)))).status,
    ).toBe(404);
    expect(announced(gone)).toBe(0);
  });

  it('accepts the policy as "true" / "false" strings and refuses anything else (the contract, as the gateway validates it)', () => {
    const ok = validateContract(UpdateTenantRequest, { settings: { console_key_sign_in: 'FALSE', console_require_mfa: 'true' } });
    expect(ok.settings).toEqual({ console_key_sign_in: false, console_require_mfa: true });
    expect(() => validateContract(UpdateTenantRequest, { settings: { console_require_mfa: 'yes' } })).toThrow();
  });
});
