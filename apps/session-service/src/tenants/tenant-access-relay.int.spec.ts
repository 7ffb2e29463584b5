import { randomUUID } from 'node:crypto';
import { SUBJECTS } from '@coffer/contracts';
import { EventBus } from '@coffer/bus';
import { CHANNELS, PrismaService, announceTenantAccessChanged } from '@coffer/db';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { insertTenant, recordingEventBus, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { TenantAccessRelay } from './tenant-access-relay';

/** The operator CLI's notification (after its act commits) reaches the gateways as an invalidation of all the tenant's keys. */
describe('TenantAccessRelay (PostgreSQL LISTEN)', () => {
  let ctx: IntegrationContext;
  const bus = recordingEventBus();
  const relayed = (tenantId: string) =>
    bus.published.filter((m) => m.subject === SUBJECTS.events.authInvalidated && JSON.stringify(m.payload) === JSON.stringify({ tenantId, allKeys: true }));
  const eventually = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
    return check();
  };

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [TenantAccessRelay, EventBus] }, [{ provide: EventBus, useValue: bus }]);
  });
  afterAll(() => ctx?.close());

  it('relays an act once it commits, and nothing for one that rolled back', async () => {
    const prisma = ctx.get(PrismaService);
    const committed = randomUUID();
    await prisma.transactional(async () => announceTenantAccessChanged(prisma, committed));
    expect(await eventually(() => relayed(committed).length === 1)).toBe(true);

    const rolledBack = randomUUID();
    await expect(
      prisma.transactional(async () => {
        announceTenantAccessChanged(prisma, rolledBack);
        throw new Error('the act failed');
      }),
    ).rejects.toThrow('the act failed');
    // a later notification has arrived, so the rolled-back one would have too
    const later = randomUUID();
    announceTenantAccessChanged(prisma, later);
    expect(await eventually(() => relayed(later).length === 1)).toBe(true);
    expect(relayed(rolledBack)).toHaveLength(0);
  });

  it("makes the process's keyring forget the tenant's unwrapped keys (TenantKeyEviction): gone from memory as from the table", async () => {
    const keyring = ctx.get(TenantKeyring);
    const shredded = await insertTenant(ctx.sql);
    const kept = await insertTenant(ctx.sql);
    const mine = await keyring.encryptJson(shredded, 'token:a', 'secret');
    const theirs = await keyring.encryptJson(kept, 'token:b', 'other');
    // the shredding deletes the rows; until the notice the cached key still opens the value
    await ctx.sql.query('DELETE FROM tenant_keys WHERE tenant_id = $1', [shredded]);
    expect(await keyring.decryptJson(shredded, mine.keyId, mine.ciphertext, 'token:a')).toBe('secret');
    const prisma = ctx.get(PrismaService);
    await prisma.transactional(async () => announceTenantAccessChanged(prisma, shredded));
    expect(await eventually(() => relayed(shredded).length === 1)).toBe(true);
    await expect(keyring.decryptJson(shredded, mine.keyId, mine.ciphertext, 'token:a')).rejects.toThrow();
    expect(await keyring.decryptJson(kept, theirs.keyId, theirs.ciphertext, 'token:b')).toBe('other');
  });

  it('ignores a notification whose payload is not a tenant id', async () => {
    const before = bus.published.length;
    await ctx.sql.query(`SELECT pg_notify($1, 'not-a-tenant')`, [CHANNELS.tenantAccess]);
    const marker = randomUUID();
    await ctx.sql.query(`SELECT pg_notify($1, $2)`, [CHANNELS.tenantAccess, marker]);
    expect(await eventually(() => relayed(marker).length === 1)).toBe(true);
    expect(bus.published.length).toBe(before + 1);
  });
});
