import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaService } from '@coffer/db';
import { ALL_MANAGEMENT_PERMISSIONS } from '@coffer/auth';
import { generateSecret, sha256Hex } from '@coffer/crypto';

export type TenantStatus = 'active' | 'suspended' | 'deleting';

export interface TenantView {
  id: string;
  name: string;
  status: TenantStatus;
  created_at: string;
  suspended_at?: string;
  deleted_at?: string;
}

/**
 * Every table holding a tenant's rows, in an order that respects the foreign keys (reactors before their
 * formulas, keys with their applications). audit_events stay: they hold no data, and the audit trail outlives the
 * tenant for its retention period.
 */
const TENANT_TABLES = [
  'token_search_indexes',
  'tokens',
  'token_intents',
  'idempotency_records',
  'webhook_attempts',
  'webhook_deliveries',
  'reactor_jobs',
  'reactors',
  'proxies',
  'reactor_formulas',
  'webhook_secrets',
  'sessions',
  'application_keys',
  'applications',
  // people (docs/members.md): console sign-ins and invitations end at "tenants delete" already
  'console_sessions',
  'tenant_invitations',
  'tenant_members',
  'tenant_keys',
] as const;

export class TenantNotFoundError extends Error {
  constructor(id: string) {
    super(`no tenant ${id}`);
  }
}

function view(t: { id: string; name: string; createdAt: Date; suspendedAt: Date | null; deletedAt: Date | null }): TenantView {
  const v: TenantView = {
    id: t.id,
    name: t.name,
    status: t.deletedAt ? 'deleting' : t.suspendedAt ? 'suspended' : 'active',
    created_at: t.createdAt.toISOString(),
  };
  if (t.suspendedAt) v.suspended_at = t.suspendedAt.toISOString();
  if (t.deletedAt) v.deleted_at = t.deletedAt.toISOString();
  return v;
}

/** The operator's view of tenants: what `admin tenants ...` does, straight on the database. */
export class TenantAdmin {
  constructor(private readonly prisma: PrismaService) {}

  async list(): Promise<TenantView[]> {
    return (await this.prisma.tenant.findMany({ orderBy: { createdAt: 'asc' } })).map(view);
  }

  async create(name: string): Promise<{ tenant_id: string; application_id: string; management_key: string }> {
    const tenantId = randomUUID();
    const applicationId = randomUUID();
    const managementKey = generateSecret('key');
    await this.prisma.$transaction([
      this.prisma.tenant.create({ data: { id: tenantId, name, settings: { deduplicate_tokens: false } } }),
      this.prisma.application.create({
        data: {
          id: applicationId,
          tenantId,
          name: `${name} management`,
          type: 'management',
          permissions: ALL_MANAGEMENT_PERMISSIONS,
          keys: { create: { id: randomUUID(), tenantId, keyHash: sha256Hex(managementKey) } },
        },
      }),
    ]);
    return { tenant_id: tenantId, application_id: applicationId, management_key: managementKey };
  }

  /** Suspends (or resumes) a tenant: authentication refuses every key of a suspended tenant (403). */
  async setSuspended(tenantId: string, suspended: boolean): Promise<TenantView> {
    const { count } = await this.prisma.tenant.updateMany({
      where: { id: tenantId, deletedAt: null },
      data: { suspendedAt: suspended ? new Date() : null, modifiedAt: new Date() },
    });
    if (!count) throw new TenantNotFoundError(tenantId);
    return this.get(tenantId);
  }

  async get(tenantId: string): Promise<TenantView> {
    const t = await this.prisma.tenant.findUnique({ where: { id: tenantId } });
    if (!t) throw new TenantNotFoundError(tenantId);
    return view(t);
  }

  /**
   * A new management key for a tenant that lost its own: the oldest management application's keys are revoked
   * (and the sessions it authorized ended), and one new key is issued. When the tenant has no management
   * application any more, one with every management permission is created.
   */
  async reissueManagementKey(tenantId: string): Promise<{ tenant_id: string; application_id: string; management_key: string; revoked_keys: number }> {
    const tenant = await this.prisma.tenant.findFirst({ where: { id: tenantId, deletedAt: null } });
    if (!tenant) throw new TenantNotFoundError(tenantId);
    const managementKey = generateSecret('key');
    return this.prisma.$transaction(async (tx) => {
      let app = await tx.application.findFirst({ where: { tenantId, type: 'management' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      app ??= await tx.application.create({
        data: { id: randomUUID(), tenantId, name: `${tenant.name} management`, type: 'management', permissions: ALL_MANAGEMENT_PERMISSIONS },
      });
      const revoked = await tx.applicationKey.deleteMany({ where: { tenantId, applicationId: app.id } });
      await tx.session.deleteMany({ where: { tenantId, authorizedBy: app.id } });
      await tx.applicationKey.create({ data: { id: randomUUID(), tenantId, applicationId: app.id, keyHash: sha256Hex(managementKey) } });
      return { tenant_id: tenantId, application_id: app.id, management_key: managementKey, revoked_keys: revoked.count };
    });
  }

  /**
   * Crypto-shredding, in one transaction: the tenant is marked deleted, every API and session key, console session
   * and invitation is revoked and its data and index keys are destroyed, so each value sealed for it can no longer be
   * opened by anyone. The rows themselves (members too) go later, in batches (purge).
   */
  async shred(tenantId: string): Promise<{ destroyed_keys: number; revoked_keys: number }> {
    const [marked, revoked, , , destroyed] = await this.prisma.$transaction([
      this.prisma.tenant.updateMany({ where: { id: tenantId }, data: { deletedAt: new Date(), modifiedAt: new Date() } }),
      this.prisma.applicationKey.deleteMany({ where: { tenantId } }),
      this.prisma.session.deleteMany({ where: { tenantId } }),
      this.prisma.application.deleteMany({ where: { tenantId } }),
      this.prisma.tenantKey.deleteMany({ where: { tenantId } }),
      // the console's sessions and the invitations' links are credentials too: they stop with the keys
      this.prisma.consoleSession.deleteMany({ where: { tenantId } }),
      this.prisma.tenantInvitation.deleteMany({ where: { tenantId } }),
    ]);
    if (!marked.count) throw new TenantNotFoundError(tenantId);
    return { destroyed_keys: destroyed.count, revoked_keys: revoked.count };
  }

  /** Tenants marked deleted whose rows are not all purged yet. */
  async deleting(): Promise<string[]> {
    return (await this.prisma.tenant.findMany({ where: { deletedAt: { not: null } }, select: { id: true }, orderBy: { deletedAt: 'asc' } })).map((t) => t.id);
  }

  /**
   * Removes a deleted tenant's rows, `batchSize` rows per statement (short transactions that never hold many
   * locks, so the services keep serving), then the tenant itself. Resumable: it only ever deletes what is left.
   */
  async purge(tenantId: string, batchSize: number, onBatch?: (table: string, deleted: number) => void): Promise<number> {
    const t = await this.prisma.tenant.findUnique({ where: { id: tenantId } });
    if (!t) return 0;
    if (!t.deletedAt) throw new Error(`tenant ${tenantId} is not deleted; run "tenants delete" first`);
    let total = 0;
    for (const table of TENANT_TABLES) {
      for (;;) {
        const name = Prisma.raw(`"${table}"`);
        const n = await this.prisma.$executeRaw`
          DELETE FROM ${name} WHERE ctid IN (SELECT ctid FROM ${name} WHERE tenant_id = ${tenantId}::uuid LIMIT ${batchSize})`;
        if (!n) break;
        total += n;
        onBatch?.(table, n);
      }
    }
    await this.prisma.tenant.deleteMany({ where: { id: tenantId, deletedAt: { not: null } } });
    return total;
  }
}
