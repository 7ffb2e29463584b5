import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@coffer/db';

export type WebhookRow = Prisma.WebhookModel;

export interface WebhookFields {
  name: string;
  url: string;
  notifyEmail: string | null;
  events: string[];
}

/** webhooks (owned by webhook-dispatcher). Every method is scoped by tenant. */
@Injectable()
export class WebhookRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Null when the tenant already holds `limit` webhooks (counted under a per-tenant lock: concurrent creates queue). */
  createWithin(limit: number, tenantId: string, data: WebhookFields & { id: string; createdBy: string }): Promise<WebhookRow | null> {
    return this.prisma.transactional(async () => {
      // pg_advisory_xact_lock returns void, which $queryRaw cannot read: run it as a statement
      await this.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || ${tenantId}))`;
      const held = await this.prisma.webhook.count({ where: { tenantId } });
      return held >= limit ? null : this.prisma.webhook.create({ data: { ...data, tenantId } });
    });
  }

  find(tenantId: string, id: string): Promise<WebhookRow | null> {
    return this.prisma.webhook.findFirst({ where: { tenantId, id } });
  }

  async page(tenantId: string, offset: number, size: number): Promise<{ rows: WebhookRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.prisma.webhook.findMany({ where: { tenantId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: size }),
      this.prisma.webhook.count({ where: { tenantId } }),
    ]);
    return { rows, total };
  }

  async update(tenantId: string, id: string, data: WebhookFields & { status?: string; modifiedBy: string }): Promise<WebhookRow | null> {
    const { count } = await this.prisma.webhook.updateMany({ where: { tenantId, id }, data: { ...data, modifiedAt: new Date() } });
    return count ? this.find(tenantId, id) : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.webhook.deleteMany({ where: { tenantId, id } });
    return count > 0;
  }

  /**
   * After sustained failure: the webhook is disabled (once; an update re-enables it). Returns it when this call
   * disabled it, so exactly one notice goes out.
   */
  async disable(tenantId: string, id: string): Promise<WebhookRow | null> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      UPDATE webhooks SET status = 'disabled', modified_at = now() WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND status = 'enabled' RETURNING id`;
    return rows.length ? this.find(tenantId, id) : null;
  }
}
