import { randomUUID } from 'node:crypto';
import { ROLES } from '@coffer/auth';
import { SUBJECTS, type MemberRole, type Principal } from '@coffer/contracts';
import { EventBus } from '@coffer/bus';
import { AuditTrail, RecordedWrites, withActingContext } from '@coffer/operations';
import { insertTenant, principalOf, problemOf, recordingEventBus, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { TenantRepository } from '../tenants/tenant.repository';
import { TenantsService } from '../tenants/tenants.service';
import { MemberRepository } from './member.repository';
import { MembersService, OWNER_PROTECTED } from './members.service';

/**
 * Tenant members and their owner against PostgreSQL: the views, the owner rules (never demoted nor removed here, one
 * owner per tenant, a transfer demotes and promotes in one transaction, only the owner in person or a management key
 * may transfer), the console sessions a removal ends, and the audit records, outbox events and invalidations that
 * come with each change. Users and members are inserted as rows (the console sign-in makes them).
 */
describe('MembersService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let members: MembersService;
  const bus = recordingEventBus();

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [MemberRepository, MembersService, TenantRepository, TenantsService, EventBus, AuditTrail, RecordedWrites] }, [
      { provide: EventBus, useValue: bus },
    ]);
    members = ctx.get(MembersService);
  });
  afterAll(() => ctx?.close());
  beforeEach(() => {
    bus.published.length = 0;
  });

  interface Person {
    userId: string;
    memberId: string;
    email: string;
    role: MemberRole;
  }

  async function insertUser(email: string, names: { first?: string; last?: string } = {}): Promise<string> {
    const id = randomUUID();
    await ctx.sql.query(
      `INSERT INTO users (id, issuer, subject, email, email_verified, first_name, last_name, picture) VALUES ($1, 'https://login.example.com', $2, $3, true, $4, $5, $6)`,
      [id, `sub-${id}`, email, names.first ?? null, names.last ?? null, names.first ? `https://pics.example.com/${id}.png` : null],
    );
    return id;
  }

  async function addMember(tenantId: string, role: MemberRole, email = `${randomUUID().slice(0, 8)}@example.com`, userId?: string): Promise<Person> {
    const user = userId ?? (await insertUser(email, { first: 'Jane', last: 'Doe' }));
    const memberId = randomUUID();
    await ctx.sql.query(`INSERT INTO tenant_members (id, tenant_id, user_id, role) VALUES ($1, $2, $3, $4)`, [memberId, tenantId, user, role]);
    return { userId: user, memberId, email, role };
  }

  /** A person signed in to the console, acting with their role's permissions. */
  const personOf = (tenantId: string, p: Person): Principal => ({
    tenantId,
    applicationId: p.userId,
    applicationType: 'management',
    permissions: [...ROLES[p.role].permissions],
    user: { id: p.userId, email: p.email, memberId: p.memberId, role: p.role },
  });

  const keyOf = (tenantId: string) =>
    principalOf(tenantId, { type: 'management', permissions: ['tenant:owner:transfer', 'tenant:member:read', 'tenant:member:update', 'tenant:member:delete'] });

  const roleOf = async (memberId: string) =>
    (await ctx.sql.query('SELECT role FROM tenant_members WHERE id = $1', [memberId])).rows[0]?.role as string | undefined;
  const auditOf = async (entityId: string) =>
    (
      await ctx.sql.query(
        'SELECT tenant_id, operation, entity_type, actor_type, actor_id, actor_name, changes FROM audit_events WHERE entity_id = $1 ORDER BY created_at, operation',
        [entityId],
      )
    ).rows;
  const eventsOf = async (tenantId: string, type: string) =>
    (await ctx.sql.query('SELECT event FROM event_outbox WHERE tenant_id = $1 AND type = $2 ORDER BY seq', [tenantId, type])).rows.map((r) => r.event);

  it('lists the members page by page, filters by user_id, and shows each with its user and both creation names', async () => {
    const tenant = await insertTenant(ctx.sql);
    const owner = await addMember(tenant, 'OWNER');
    const dev = await addMember(tenant, 'DEVELOPER');
    await addMember(tenant, 'READ_ONLY');
    const key = keyOf(tenant);

    const all = await withActingContext({ principal: key }, () => members.list({}));
    expect(all.pagination).toEqual({ total_items: 3, page_number: 1, page_size: 20, total_pages: 1 });
    const second = await withActingContext({ principal: key }, () => members.list({ page: '2', size: '2' }));
    expect(second.data).toHaveLength(1);
    expect(second.pagination).toMatchObject({ total_items: 3, page_number: 2, page_size: 2, total_pages: 2 });

    const filtered = await withActingContext({ principal: key }, () => members.list({ user_id: [dev.userId, owner.userId, 'not-a-uuid'] }));
    expect(filtered.data.map((m) => m.id).sort()).toEqual([dev.memberId, owner.memberId].sort());
    expect((await withActingContext({ principal: key }, () => members.list({ user_id: 'not-a-uuid' }))).data).toEqual([]);

    const view = await withActingContext({ principal: key }, () => members.get(dev.memberId));
    expect(view).toEqual({
      id: dev.memberId,
      tenant_id: tenant,
      user: {
        id: dev.userId,
        email: dev.email,
        first_name: 'Jane',
        last_name: 'Doe',
        picture: `https://pics.example.com/${dev.userId}.png`,
        provider: 'https://login.example.com',
      },
      role: 'DEVELOPER',
      created_at: expect.any(String),
      created_date: view.created_at,
    });
  });

  it('refuses bad queries and bodies with a 400 (never a 500), unknown and foreign ids with a 404', async () => {
    const tenant = await insertTenant(ctx.sql);
    const dev = await addMember(tenant, 'DEVELOPER');
    const key = keyOf(tenant);
    expect(await problemOf(withActingContext({ principal: key }, () => members.list({ size: '1000' })))).toMatchObject({
      status: 400,
      errors: { size: [expect.any(String)] },
    });
    expect(await problemOf(withActingContext({ principal: key }, () => members.list({ page: '0' })))).toMatchObject({
      status: 400,
      errors: { page: [expect.any(String)] },
    });
    expect(
      await problemOf(withActingContext({ principal: key }, () => members.list({ user_id: Array.from({ length: 101 }, () => randomUUID()) }))),
    ).toMatchObject({ status: 400 });
    for (const body of [undefined, null, 'ADMIN', [], {}, { role: 'OWNER' }, { role: 'superuser' }, { role: 42 }, { role: 'ADMIN\u0000' }]) {
      expect((await problemOf(withActingContext({ principal: key }, () => members.update(dev.memberId, body)))).status).toBe(400);
    }
    expect(await problemOf(withActingContext({ principal: key }, () => members.update(dev.memberId, { role: 'owner' })))).toMatchObject({
      status: 400,
      errors: { role: [expect.stringContaining('ADMIN')] },
    });
    expect((await problemOf(withActingContext({ principal: key }, () => members.get('nope')))).status).toBe(404);
    expect((await problemOf(withActingContext({ principal: key }, () => members.get(randomUUID())))).status).toBe(404);
    expect((await problemOf(withActingContext({ principal: key }, () => members.update(randomUUID(), { role: 'ADMIN' })))).status).toBe(404);
    expect((await problemOf(withActingContext({ principal: key }, () => members.delete('nope')))).status).toBe(404);
    const stranger = keyOf(await insertTenant(ctx.sql));
    expect((await problemOf(withActingContext({ principal: stranger }, () => members.get(dev.memberId)))).status).toBe(404);
    expect((await problemOf(withActingContext({ principal: stranger }, () => members.update(dev.memberId, { role: 'ADMIN' })))).status).toBe(404);
    expect((await problemOf(withActingContext({ principal: stranger }, () => members.delete(dev.memberId)))).status).toBe(404);
    expect(await roleOf(dev.memberId)).toBe('DEVELOPER');
    expect(await problemOf(withActingContext({ principal: key }, () => members.transferOwner({ member_id: 'x' })))).toMatchObject({
      status: 400,
      errors: { member_id: [expect.any(String)] },
    });
    expect((await problemOf(withActingContext({ principal: key }, () => members.transferOwner(null)))).status).toBe(400);
  });

  it('changes a role (any case): the change, its audit record and its event commit together; the gateway is told', async () => {
    const tenant = await insertTenant(ctx.sql);
    const owner = await addMember(tenant, 'OWNER');
    const dev = await addMember(tenant, 'DEVELOPER');
    const view = await withActingContext({ principal: personOf(tenant, owner) }, () => members.update(dev.memberId, { role: ' read_only ' }));
    expect(view).toMatchObject({ id: dev.memberId, role: 'READ_ONLY', modified_by: owner.userId, modified_at: expect.any(String) });
    expect(await roleOf(dev.memberId)).toBe('READ_ONLY');
    expect(await auditOf(dev.memberId)).toEqual([
      {
        tenant_id: tenant,
        operation: 'update',
        entity_type: 'tenant_member',
        actor_type: 'user',
        actor_id: owner.userId,
        actor_name: owner.email,
        changes: { role: { old: 'DEVELOPER', new: 'READ_ONLY' } },
      },
    ]);
    const [event] = await eventsOf(tenant, 'tenant.member.updated');
    expect(event).toMatchObject({
      type: 'tenant.member.updated',
      tenant_id: tenant,
      data: { member: { id: dev.memberId, role: 'READ_ONLY' }, actor: { type: 'user', id: owner.userId } },
    });
    expect(bus.published).toEqual([{ subject: SUBJECTS.events.authInvalidated, payload: { tenantId: tenant, userId: dev.userId } }]);

    // the same role again: nothing changes, nothing is recorded or announced
    bus.published.length = 0;
    await withActingContext({ principal: personOf(tenant, owner) }, () => members.update(dev.memberId, { role: 'READ_ONLY' }));
    expect(await auditOf(dev.memberId)).toHaveLength(1);
    expect(bus.published).toEqual([]);
  });

  it('never demotes nor removes the owner (409), whoever asks, and records nothing for a refusal', async () => {
    const tenant = await insertTenant(ctx.sql);
    const owner = await addMember(tenant, 'OWNER');
    const admin = await addMember(tenant, 'ADMIN');
    for (const principal of [personOf(tenant, admin), personOf(tenant, owner), keyOf(tenant)]) {
      expect(await problemOf(withActingContext({ principal }, () => members.update(owner.memberId, { role: 'ADMIN' })))).toMatchObject({
        status: 409,
        detail: OWNER_PROTECTED,
      });
      expect(await problemOf(withActingContext({ principal }, () => members.delete(owner.memberId)))).toMatchObject({ status: 409, detail: OWNER_PROTECTED });
    }
    expect(await roleOf(owner.memberId)).toBe('OWNER');
    expect(await auditOf(owner.memberId)).toEqual([]);
    expect(await eventsOf(tenant, 'tenant.member.updated')).toEqual([]);
    expect(await eventsOf(tenant, 'tenant.member.deleted')).toEqual([]);
    expect(bus.published).toEqual([]);
  });

  it('removes a member with its console sessions in this tenant (not in another), records it, and tells the gateway; anyone but the owner may leave', async () => {
    const tenant = await insertTenant(ctx.sql);
    const owner = await addMember(tenant, 'OWNER');
    const dev = await addMember(tenant, 'DEVELOPER');
    const other = await insertTenant(ctx.sql);
    await addMember(other, 'ADMIN', dev.email, dev.userId);
    const session = (t: string, u: string) =>
      ctx.sql.query(`INSERT INTO console_sessions (id_hash, tenant_id, user_id, csrf_hash, expires_at) VALUES ($1, $2, $3, 'c', now() + interval '1 hour')`, [
        randomUUID(),
        t,
        u,
      ]);
    await session(tenant, dev.userId);
    await session(tenant, dev.userId);
    await session(other, dev.userId);
    await session(tenant, owner.userId);
    const count = async (t: string, u: string) =>
      (await ctx.sql.query('SELECT count(*)::int AS n FROM console_sessions WHERE tenant_id = $1 AND user_id = $2', [t, u])).rows[0].n;

    await withActingContext({ principal: personOf(tenant, owner) }, () => members.delete(dev.memberId));
    expect(await roleOf(dev.memberId)).toBeUndefined();
    expect(await count(tenant, dev.userId)).toBe(0);
    expect(await count(other, dev.userId)).toBe(1);
    expect(await count(tenant, owner.userId)).toBe(1);
    expect(await auditOf(dev.memberId)).toEqual([
      expect.objectContaining({ operation: 'delete', entity_type: 'tenant_member', changes: { user_id: { old: dev.userId }, role: { old: 'DEVELOPER' } } }),
    ]);
    expect(await eventsOf(tenant, 'tenant.member.deleted')).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ member: expect.objectContaining({ id: dev.memberId, user: expect.objectContaining({ id: dev.userId }) }) }),
      }),
    ]);
    expect(bus.published).toEqual([{ subject: SUBJECTS.events.authInvalidated, payload: { tenantId: tenant, userId: dev.userId } }]);
    expect((await problemOf(withActingContext({ principal: personOf(tenant, owner) }, () => members.delete(dev.memberId)))).status).toBe(404);

    // an admin leaves on their own
    const admin = await addMember(tenant, 'ADMIN');
    await withActingContext({ principal: personOf(tenant, admin) }, () => members.delete(admin.memberId));
    expect(await roleOf(admin.memberId)).toBeUndefined();
  });

  it('shows the owner (404 until there is one) and its user id on the tenant', async () => {
    const tenant = await insertTenant(ctx.sql);
    const key = keyOf(tenant);
    expect(await problemOf(withActingContext({ principal: key }, () => members.owner()))).toMatchObject({ status: 404 });
    const tenants = ctx.get(TenantsService);
    expect((await tenants.get(tenant)).owner_id).toBeUndefined();
    const owner = await addMember(tenant, 'OWNER');
    await addMember(tenant, 'ADMIN');
    expect(await withActingContext({ principal: key }, () => members.owner())).toMatchObject({ id: owner.memberId, role: 'OWNER', user: { id: owner.userId } });
    expect((await tenants.get(tenant)).owner_id).toBe(owner.userId);
    expect((await tenants.get(tenant, { owner: false })).owner_id).toBeUndefined();
  });

  it('transfers ownership when the owner asks: the owner becomes ADMIN, the member OWNER, recorded and announced', async () => {
    const tenant = await insertTenant(ctx.sql);
    const owner = await addMember(tenant, 'OWNER');
    const dev = await addMember(tenant, 'DEVELOPER');
    const view = await withActingContext({ principal: personOf(tenant, owner), traceId: 'trace-transfer' }, () =>
      members.transferOwner({ member_id: dev.memberId }),
    );
    expect(view).toMatchObject({ id: dev.memberId, role: 'OWNER' });
    expect(await roleOf(owner.memberId)).toBe('ADMIN');
    expect(await roleOf(dev.memberId)).toBe('OWNER');
    expect((await ctx.sql.query(`SELECT count(*)::int AS n FROM tenant_members WHERE tenant_id = $1 AND role = 'OWNER'`, [tenant])).rows[0].n).toBe(1);
    expect(await auditOf(owner.memberId)).toEqual([
      expect.objectContaining({ operation: 'update', actor_id: owner.userId, changes: { role: { old: 'OWNER', new: 'ADMIN' } } }),
    ]);
    expect(await auditOf(dev.memberId)).toEqual([
      expect.objectContaining({
        operation: 'transfer',
        entity_type: 'tenant_member',
        changes: { role: { old: 'DEVELOPER', new: 'OWNER' }, previous_owner: { old: owner.memberId } },
      }),
    ]);
    expect(await eventsOf(tenant, 'tenant.owner.transferred')).toEqual([
      expect.objectContaining({
        trace_id: 'trace-transfer',
        data: expect.objectContaining({
          member: expect.objectContaining({ id: dev.memberId, role: 'OWNER' }),
          previous_owner: expect.objectContaining({ id: owner.memberId, role: 'ADMIN' }),
        }),
      }),
    ]);
    expect(bus.published).toEqual([
      { subject: SUBJECTS.events.authInvalidated, payload: { tenantId: tenant, userId: dev.userId } },
      { subject: SUBJECTS.events.authInvalidated, payload: { tenantId: tenant, userId: owner.userId } },
    ]);
    expect((await ctx.get(TenantsService).get(tenant)).owner_id).toBe(dev.userId);

    // to the member already the owner: unchanged, nothing recorded
    bus.published.length = 0;
    expect(
      await withActingContext({ principal: personOf(tenant, { ...dev, role: 'OWNER' }) }, () => members.transferOwner({ member_id: dev.memberId })),
    ).toMatchObject({
      id: dev.memberId,
      role: 'OWNER',
    });
    expect(await eventsOf(tenant, 'tenant.owner.transferred')).toHaveLength(1);
    expect(bus.published).toEqual([]);
  });

  it('refuses a transfer by anyone but the owner in person (an ADMIN: 403), allows it to a management key (break-glass), 404 for a stranger', async () => {
    const tenant = await insertTenant(ctx.sql);
    const owner = await addMember(tenant, 'OWNER');
    const admin = await addMember(tenant, 'ADMIN');
    expect(
      await problemOf(withActingContext({ principal: personOf(tenant, admin) }, () => members.transferOwner({ member_id: admin.memberId }))),
    ).toMatchObject({ status: 403 });
    // the principal's stale role does not count: the owner is the OWNER row
    expect(
      await problemOf(
        withActingContext({ principal: personOf(tenant, { ...admin, role: 'OWNER' }) }, () => members.transferOwner({ member_id: admin.memberId })),
      ),
    ).toMatchObject({ status: 403 });
    expect(await roleOf(owner.memberId)).toBe('OWNER');
    expect(await roleOf(admin.memberId)).toBe('ADMIN');

    const strangerMember = await addMember(await insertTenant(ctx.sql), 'ADMIN');
    expect((await problemOf(withActingContext({ principal: keyOf(tenant) }, () => members.transferOwner({ member_id: strangerMember.memberId })))).status).toBe(
      404,
    );
    expect((await problemOf(withActingContext({ principal: personOf(tenant, owner) }, () => members.transferOwner({ member_id: randomUUID() })))).status).toBe(
      404,
    );

    const view = await withActingContext({ principal: keyOf(tenant) }, () => members.transferOwner({ member_id: admin.memberId }));
    expect(view.role).toBe('OWNER');
    expect(await roleOf(owner.memberId)).toBe('ADMIN');
    expect(await auditOf(admin.memberId)).toEqual([expect.objectContaining({ operation: 'transfer', actor_type: 'application' })]);

    // a tenant without an owner: a key names one
    const orphan = await insertTenant(ctx.sql);
    const heir = await addMember(orphan, 'READ_ONLY');
    expect(await withActingContext({ principal: keyOf(orphan) }, () => members.transferOwner({ member_id: heir.memberId }))).toMatchObject({ role: 'OWNER' });
    expect(await eventsOf(orphan, 'tenant.owner.transferred')).toEqual([
      expect.objectContaining({ data: expect.not.objectContaining({ previous_owner: expect.anything() }) }),
    ]);
  });

  it('is atomic: a promotion that fails leaves the owner in place and records nothing; transfers at once end with one owner', async () => {
    const tenant = await insertTenant(ctx.sql);
    const owner = await addMember(tenant, 'OWNER');
    const doomed = await addMember(tenant, 'ADMIN');
    // the promotion of this one member fails inside the transaction, after the demotion ran
    await ctx.sql.query(`
      CREATE FUNCTION refuse_promotion() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'promotion refused'; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_promotion BEFORE UPDATE ON tenant_members FOR EACH ROW
        WHEN (NEW.id = '${doomed.memberId}' AND NEW.role = 'OWNER') EXECUTE FUNCTION refuse_promotion();`);
    try {
      await expect(withActingContext({ principal: personOf(tenant, owner) }, () => members.transferOwner({ member_id: doomed.memberId }))).rejects.toThrow(
        /promotion refused/,
      );
      expect(await roleOf(owner.memberId)).toBe('OWNER');
      expect(await roleOf(doomed.memberId)).toBe('ADMIN');
      expect(await auditOf(owner.memberId)).toEqual([]);
      expect(await eventsOf(tenant, 'tenant.owner.transferred')).toEqual([]);
      expect(bus.published).toEqual([]);
    } finally {
      await ctx.sql.query('DROP TRIGGER refuse_promotion ON tenant_members; DROP FUNCTION refuse_promotion();');
    }

    const candidates = await Promise.all([1, 2, 3, 4].map(() => addMember(tenant, 'DEVELOPER')));
    const results = await Promise.allSettled(
      candidates.map((c) => withActingContext({ principal: keyOf(tenant) }, () => members.transferOwner({ member_id: c.memberId }))),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    const owners = (await ctx.sql.query(`SELECT id FROM tenant_members WHERE tenant_id = $1 AND role = 'OWNER'`, [tenant])).rows;
    expect(owners).toHaveLength(1);
    expect(await eventsOf(tenant, 'tenant.owner.transferred')).toHaveLength(4);
  });
});
