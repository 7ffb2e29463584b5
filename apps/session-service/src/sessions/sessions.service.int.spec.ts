import { type Principal } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { EventBus } from '@coffer/bus';
import { AuditTrail, RecordedWrites, withActingContext } from '@coffer/operations';
import { insertTenant, problemOf, recordingEventBus, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { AuthenticateService } from '../authenticate/authenticate.service';
import { TenantRepository } from '../tenants/tenant.repository';
import { ApplicationKeyRepository } from '../applications/application-key.repository';
import { ApplicationKeysService } from '../applications/application-keys.service';
import { ApplicationRepository } from '../applications/application.repository';
import { ApplicationsService } from '../applications/applications.service';
import { SessionRepository } from './session.repository';
import { SessionsService } from './sessions.service';

/** Sessions against PostgreSQL: created by a public key, authorized once by a private key, gone when they expire. Events: recording bus. */
describe('SessionsService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let sessions: SessionsService;
  let auth: AuthenticateService;
  let publicApp: Principal;
  let privateApp: Principal;

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
          TenantRepository,
          EventBus,
          AuditTrail,
          RecordedWrites,
        ],
      },
      [{ provide: EventBus, useValue: recordingEventBus() }],
    );
    sessions = ctx.get(SessionsService);
    auth = ctx.get(AuthenticateService);
    const tenant = await insertTenant(ctx.sql);
    const apps = ctx.get(ApplicationsService);
    const admin: Principal = { tenantId: tenant, applicationId: tenant, applicationType: 'management', permissions: ['application:create'] };
    const pub = await withActingContext({ principal: admin }, () => apps.create({ name: 'web', type: 'public', permissions: ['token:create'] }));
    const priv = await withActingContext({ principal: admin }, () =>
      apps.create({ name: 'backend', type: 'private', permissions: ['token:read', 'token:use'] }),
    );
    publicApp = (await auth.authenticate(sha256Hex(pub.keys?.[0]?.key as string))).principal as Principal;
    privateApp = (await auth.authenticate(sha256Hex(priv.keys?.[0]?.key as string))).principal as Principal;
  });
  afterAll(() => ctx?.close());

  const principalOfKey = async (key: string) => (await auth.authenticate(sha256Hex(key))).principal;

  it('a public key creates a pending session (stored as hashes only) that authenticates but grants nothing', async () => {
    const s = await withActingContext({ principal: publicApp }, () => sessions.create());
    const row = (await ctx.sql.query('SELECT * FROM sessions WHERE key_hash = $1', [sha256Hex(s.session_key)])).rows[0];
    expect(row.nonce_hash).toBe(sha256Hex(s.nonce));
    expect(JSON.stringify(row)).not.toContain(s.session_key);
    expect(await principalOfKey(s.session_key)).toMatchObject({ sessionPending: true, permissions: [], applicationId: publicApp.applicationId });
    expect((await problemOf(withActingContext({ principal: privateApp }, () => sessions.create()))).status).toBe(403);
  });

  it('a private key authorizes it once, within its own grants; the session then carries the authorizer as its cap', async () => {
    const s = await withActingContext({ principal: publicApp }, () => sessions.create());
    expect(
      (await problemOf(withActingContext({ principal: privateApp }, () => sessions.authorize({ nonce: s.nonce, permissions: ['token:delete'] })))).status,
    ).toBe(400);
    await withActingContext({ principal: privateApp }, () => sessions.authorize({ nonce: s.nonce, permissions: ['token:read'] }));
    const principal = await principalOfKey(s.session_key);
    expect(principal).toMatchObject({ permissions: ['token:read'], authorizer: { applicationId: privateApp.applicationId } });
    expect(principal?.sessionPending).toBeUndefined();
    expect(
      (await problemOf(withActingContext({ principal: privateApp }, () => sessions.authorize({ nonce: s.nonce, permissions: ['token:read'] })))).status,
    ).toBe(409);
    expect(
      (await problemOf(withActingContext({ principal: privateApp }, () => sessions.authorize({ nonce: 'nonce_unknown', permissions: ['token:read'] })))).status,
    ).toBe(404);
  });

  it('an expired session no longer authenticates or authorizes, and the sweep removes it', async () => {
    const s = await withActingContext({ principal: publicApp }, () => sessions.create());
    await ctx.sql.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE key_hash = $1`, [sha256Hex(s.session_key)]);
    expect(
      (await problemOf(withActingContext({ principal: privateApp }, () => sessions.authorize({ nonce: s.nonce, permissions: ['token:read'] })))).status,
    ).toBe(404);
    const other = await withActingContext({ principal: publicApp }, () => sessions.create());
    await ctx.sql.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE key_hash = $1`, [sha256Hex(other.session_key)]);
    expect(await sessions.sweep()).toBeGreaterThanOrEqual(1);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM sessions WHERE key_hash = $1', [sha256Hex(other.session_key)])).rows[0].n).toBe(0);
    expect(await principalOfKey(s.session_key)).toBeNull();
  });
});
