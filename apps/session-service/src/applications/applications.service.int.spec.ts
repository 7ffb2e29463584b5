import { SUBJECTS, type ApplicationView, type Principal } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { EventBus } from '@coffer/bus';
import { AuditTrail, RecordedWrites, withActingContext } from '@coffer/operations';
import {
  insertTenant,
  principalOf,
  problemOf,
  recordingEventBus,
  startIntegration,
  withAuditRefused,
  type IntegrationContext,
} from '@coffer/testing/integration';
import { AuthenticateService } from '../authenticate/authenticate.service';
import { KeyHolderRepository } from '../authenticate/key-holder.repository';
import { TenantRepository } from '../tenants/tenant.repository';
import { SessionRepository } from '../sessions/session.repository';
import { SessionsService } from '../sessions/sessions.service';
import { ApplicationKeyRepository } from './application-key.repository';
import { ApplicationKeysService } from './application-keys.service';
import { ApplicationRepository } from './application.repository';
import { ApplicationsService } from './applications.service';

/**
 * Applications and their keys against PostgreSQL, checked the way the gateway uses them: a key authenticates
 * (AuthenticateService) until it is deleted or regenerated. The invalidation events go to a recording bus (no NATS).
 */
describe('ApplicationsService and ApplicationKeysService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let apps: ApplicationsService;
  let keys: ApplicationKeysService;
  let auth: AuthenticateService;
  const bus = recordingEventBus();
  let tenant: string;
  let admin: Principal;

  beforeAll(async () => {
    ctx = await startIntegration(
      {
        providers: [
          ApplicationRepository,
          ApplicationKeyRepository,
          ApplicationsService,
          ApplicationKeysService,
          SessionRepository,
          SessionsService,
          AuthenticateService,
          KeyHolderRepository,
          TenantRepository,
          EventBus,
          AuditTrail,
          RecordedWrites,
        ],
      },
      [{ provide: EventBus, useValue: bus }],
    );
    apps = ctx.get(ApplicationsService);
    keys = ctx.get(ApplicationKeysService);
    auth = ctx.get(AuthenticateService);
    tenant = await insertTenant(ctx.sql);
    admin = principalOf(tenant, { type: 'management', permissions: ['application:create', 'application:read', 'application:update', 'application:delete'] });
  });
  afterAll(() => ctx?.close());

  const principalFor = async (key: string) => (await auth.authenticate(sha256Hex(key))).principal;

  it('creates an application with a key shown once and stored only as its hash; the key authenticates as the application', async () => {
    const app = await withActingContext({ principal: admin }, () =>
      apps.create({ name: 'backend', type: 'private', permissions: ['token:create', 'token:read'] }),
    );
    const key = app.keys?.[0]?.key as string;
    expect(key).toMatch(/^key_/);
    const stored = await ctx.sql.query('SELECT key_hash FROM application_keys WHERE application_id = $1', [app.id]);
    expect(stored.rows).toEqual([{ key_hash: sha256Hex(key) }]);
    expect(JSON.stringify((await ctx.sql.query('SELECT * FROM applications WHERE id = $1', [app.id])).rows)).not.toContain(key);
    expect(await principalFor(key)).toEqual({
      tenantId: tenant,
      applicationId: app.id,
      applicationType: 'private',
      permissions: ['token:create', 'token:read'],
    });
    expect((await withActingContext({ principal: admin }, () => apps.get(app.id))).keys).toBeUndefined();
  });

  it('refuses invalid grants with a 400 per field, and keeps tenants apart (404 for another tenant’s application)', async () => {
    const bad = await problemOf(
      withActingContext({ principal: admin }, () => apps.create({ name: 'x', type: 'private', permissions: ['token:fly'], rules: [{ priority: 1 } as never] })),
    );
    expect(bad.status).toBe(400);
    const app = await withActingContext({ principal: admin }, () => apps.create({ name: 'mine', type: 'private', permissions: ['token:read'] }));
    const stranger = principalOf(await insertTenant(ctx.sql), { type: 'management', permissions: ['application:read', 'application:delete'] });
    expect((await problemOf(withActingContext({ principal: stranger }, () => apps.get(app.id)))).status).toBe(404);
    expect((await problemOf(withActingContext({ principal: stranger }, () => apps.delete(app.id)))).status).toBe(404);
    expect((await withActingContext({ principal: stranger }, () => apps.list({}))).data).toEqual([]);
    expect((await withActingContext({ principal: admin }, () => apps.list({ type: 'private' }))).data.map((a: ApplicationView) => a.id)).toContain(app.id);
  });

  it('updates rules: the stored grants change, the next authentication carries them, and the gateway is told', async () => {
    const app = await withActingContext({ principal: admin }, () => apps.create({ name: 'ruled', type: 'private', permissions: ['token:read'] }));
    bus.published.length = 0;
    const rules = [{ priority: 1, container: '/PCI/', transform: 'mask' as const, permissions: ['token:read'] }];
    const view = await withActingContext({ principal: admin }, () => apps.update(app.id, { name: 'ruled', rules }));
    expect(view.rules).toEqual([{ priority: 1, container: '/pci/', transform: 'mask', permissions: ['token:read'] }]);
    const principal = await principalFor(app.keys?.[0]?.key as string);
    expect(principal?.permissions).toEqual([]);
    expect(principal?.rules).toEqual(view.rules);
    expect(bus.published).toEqual([{ subject: SUBJECTS.events.authInvalidated, payload: { tenantId: tenant, applicationId: app.id } }]);
  });

  it('issues up to the limit of extra keys, each of which authenticates; a deleted key stops at once, the others keep working', async () => {
    const app = await withActingContext({ principal: admin }, () => apps.create({ name: 'multi', type: 'private', permissions: ['token:read'] }));
    const second = await withActingContext({ principal: admin }, () => keys.create(app.id));
    expect((await principalFor(second.key as string))?.applicationId).toBe(app.id);
    expect((await withActingContext({ principal: admin }, () => keys.list(app.id))).map((k) => k.id).sort()).toEqual([app.keys?.[0]?.id, second.id].sort());
    await withActingContext({ principal: admin }, () => keys.delete(app.id, second.id));
    expect(await principalFor(second.key as string)).toBeNull();
    expect((await principalFor(app.keys?.[0]?.key as string))?.applicationId).toBe(app.id);
    expect((await problemOf(withActingContext({ principal: admin }, () => keys.delete(app.id, second.id)))).status).toBe(404);
  });

  it('regenerates: every old key stops, one new key works', async () => {
    const app = await withActingContext({ principal: admin }, () => apps.create({ name: 'regen', type: 'private', permissions: ['token:read'] }));
    const old = app.keys?.[0]?.key as string;
    const regenerated = await withActingContext({ principal: admin }, () => apps.regenerate(app.id));
    expect(await principalFor(old)).toBeNull();
    expect((await principalFor(regenerated.keys?.[0]?.key as string))?.applicationId).toBe(app.id);
  });

  it('deletes an application with its keys and the sessions it created', async () => {
    const pub = await withActingContext({ principal: admin }, () => apps.create({ name: 'web', type: 'public', permissions: ['token:create'] }));
    const pubPrincipal = (await principalFor(pub.keys?.[0]?.key as string)) as Principal;
    const session = await withActingContext({ principal: pubPrincipal }, () => ctx.get(SessionsService).create());
    expect((await principalFor(session.session_key))?.sessionPending).toBe(true);
    await withActingContext({ principal: admin }, () => apps.delete(pub.id));
    expect(await principalFor(pub.keys?.[0]?.key as string)).toBeNull();
    expect(await principalFor(session.session_key)).toBeNull();
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM application_keys WHERE application_id = $1', [pub.id])).rows[0].n).toBe(0);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM sessions WHERE application_id = $1', [pub.id])).rows[0].n).toBe(0);
    expect((await problemOf(withActingContext({ principal: admin }, () => apps.get(pub.id)))).status).toBe(404);
  });

  it("refuses a suspended tenant's keys with a 403 until it is resumed, and forgets a deleted tenant's (null: 401)", async () => {
    const app = await withActingContext({ principal: admin }, () => apps.create({ name: 'suspended', type: 'private', permissions: ['token:read'] }));
    const key = app.keys?.[0]?.key as string;
    await ctx.sql.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [tenant]);
    await expect(principalFor(key)).rejects.toMatchObject({ problem: { status: 403, title: 'Forbidden', detail: expect.stringContaining('suspended') } });
    await ctx.sql.query('UPDATE tenants SET suspended_at = NULL WHERE id = $1', [tenant]);
    expect(await principalFor(key)).toMatchObject({ tenantId: tenant, applicationId: app.id });
    const gone = await insertTenant(ctx.sql);
    const other = await withActingContext({ principal: principalOf(gone, { type: 'management', permissions: ['application:create'] }) }, () =>
      apps.create({
        name: 'x',
        type: 'private',
        permissions: ['token:read'],
      }),
    );
    await ctx.sql.query('UPDATE tenants SET deleted_at = now() WHERE id = $1', [gone]);
    expect(await principalFor(other.keys?.[0]?.key as string)).toBeNull();
  });

  it('an act whose audit record cannot be written does not happen: a new key and a regeneration roll back with it', async () => {
    const app = await withActingContext({ principal: admin }, () => apps.create({ name: 'audited', type: 'private', permissions: ['token:read'] }));
    const oldKey = app.keys?.[0]?.key as string;
    const stored = async () => (await ctx.sql.query('SELECT id, key_hash FROM application_keys WHERE application_id = $1 ORDER BY id', [app.id])).rows;
    const before = await stored();
    await withAuditRefused(ctx.sql, async () => {
      await expect(withActingContext({ principal: admin }, () => keys.create(app.id))).rejects.toThrow(/audit refused/);
      await expect(withActingContext({ principal: admin }, () => apps.regenerate(app.id))).rejects.toThrow(/audit refused/);
    });
    expect(await stored()).toEqual(before);
    expect(await principalFor(oldKey)).toMatchObject({ applicationId: app.id });
  });
});
