import { type Principal } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { PrismaService } from '@coffer/db';
import { EventBus } from '@coffer/bus';
import { AuditTrail, RecordedWrites, withActingContext } from '@coffer/operations';
import { insertTenant, problemOf, recordingEventBus, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { AuthenticateService } from '../authenticate/authenticate.service';
import { KeyHolderRepository } from '../authenticate/key-holder.repository';
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
  let admin: Principal;
  let tenantId: string;

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
      [{ provide: EventBus, useValue: recordingEventBus() }],
    );
    sessions = ctx.get(SessionsService);
    auth = ctx.get(AuthenticateService);
    const tenant = await insertTenant(ctx.sql);
    const apps = ctx.get(ApplicationsService);
    tenantId = tenant;
    admin = { tenantId: tenant, applicationId: tenant, applicationType: 'management', permissions: ['application:create'] };
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

  it('each create and each authorize that changed the session commits its audit record and event with it; a refused authorize leaves neither, nor does a create rolled back with its unit of work', async () => {
    const recorded = async (sessionId: string) => ({
      audit: (
        await ctx.sql.query('SELECT operation, actor_application_id, changes FROM audit_events WHERE entity_type = $1 AND entity_id = $2 ORDER BY operation', [
          'session',
          sessionId,
        ])
      ).rows,
      events: (await ctx.sql.query(`SELECT type FROM event_outbox WHERE event->'data'->'session'->>'id' = $1 ORDER BY seq`, [sessionId])).rows.map(
        (r) => r.type,
      ),
    });
    const s = await withActingContext({ principal: publicApp }, () => sessions.create());
    const [{ id }] = (await ctx.sql.query('SELECT id FROM sessions WHERE key_hash = $1', [sha256Hex(s.session_key)])).rows;
    expect(await recorded(id)).toEqual({
      audit: [{ operation: 'create', actor_application_id: publicApp.applicationId, changes: { expires_at: { new: s.expires_at } } }],
      events: ['session.created'],
    });
    await withActingContext({ principal: privateApp }, () => sessions.authorize({ nonce: s.nonce, permissions: ['token:read'] }));
    await problemOf(withActingContext({ principal: privateApp }, () => sessions.authorize({ nonce: s.nonce, permissions: ['token:read'] })));
    const after = await recorded(id);
    expect(after.audit.map((a) => [a.operation, a.actor_application_id])).toEqual([
      ['authorize', privateApp.applicationId],
      ['create', publicApp.applicationId],
    ]);
    expect(after.audit[0].changes).toEqual({ permissions: { new: ['token:read'] }, expires_at: { new: s.expires_at } });
    expect(after.events).toEqual(['session.created', 'session.authorized']);

    let rolledBack: string | undefined;
    await expect(
      ctx.get(PrismaService).transactional(async () => {
        rolledBack = (await withActingContext({ principal: publicApp }, () => sessions.create())).session_key;
        throw new Error('the unit of work fails after the create');
      }),
    ).rejects.toThrow('fails after');
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM sessions WHERE key_hash = $1', [sha256Hex(rolledBack as string)])).rows[0].n).toBe(0);
  });

  it("a session key stops authenticating, and its session is deleted, once its creator or its authorizer is gone (a row removed behind the service's back); a suspended tenant's session key is a 403", async () => {
    const apps = ctx.get(ApplicationsService);
    const principalOfApp = async (type: 'public' | 'private', permissions: string[]) => {
      const app = await withActingContext({ principal: admin }, () => apps.create({ name: `${type}-${Math.random()}`, type, permissions }));
      return (await auth.authenticate(sha256Hex(app.keys?.[0]?.key as string))).principal as Principal;
    };
    const sessionsOf = async (applicationId: string) =>
      (await ctx.sql.query('SELECT count(*)::int AS n FROM sessions WHERE application_id = $1', [applicationId])).rows[0].n;

    const creator = await principalOfApp('public', ['token:create']);
    const pending = await withActingContext({ principal: creator }, () => sessions.create());
    expect(await principalOfKey(pending.session_key)).toMatchObject({ sessionPending: true, tenantId });
    await ctx.sql.query('DELETE FROM applications WHERE id = $1', [creator.applicationId]);
    expect(await principalOfKey(pending.session_key)).toBeNull();
    expect(await sessionsOf(creator.applicationId)).toBe(0);

    const authorizer = await principalOfApp('private', ['token:read']);
    const authorized = await withActingContext({ principal: publicApp }, () => sessions.create());
    await withActingContext({ principal: authorizer }, () => sessions.authorize({ nonce: authorized.nonce, permissions: ['token:read'] }));
    expect(await principalOfKey(authorized.session_key)).toMatchObject({
      authorizer: { applicationId: authorizer.applicationId, permissions: ['token:read'] },
    });
    await ctx.sql.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [tenantId]);
    await expect(principalOfKey(authorized.session_key)).rejects.toMatchObject({ problem: { status: 403 } });
    await ctx.sql.query('UPDATE tenants SET suspended_at = NULL WHERE id = $1', [tenantId]);
    await ctx.sql.query('DELETE FROM applications WHERE id = $1', [authorizer.applicationId]);
    expect(await principalOfKey(authorized.session_key)).toBeNull();
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM sessions WHERE key_hash = $1', [sha256Hex(authorized.session_key)])).rows[0].n).toBe(0);
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
