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

  /**
   * Null when the tenant already holds `limit` webhooks (counted under a per-tenant lock: concurrent creates queue).
   * `withIt` runs in the same transaction once the row is written (the webhook's signing secret): both or neither.
   */
  createWithin<T>(
    limit: number,
    tenantId: string,
    data: WebhookFields & { id: string; createdBy: string },
    withIt: (row: WebhookRow) => Promise<T>,
  ): Promise<{ row: WebhookRow; also: T } | null> {
    return this.prisma.transactional(async () => {
      // pg_advisory_xact_lock returns void, which $queryRaw cannot read: run it as a statement
      await this.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || ${tenantId}))`;
      const held = await this.prisma.webhook.count({ where: { tenantId } });
      if (held >= limit) return null;
      const row = await this.prisma.webhook.create({ data: { ...data, tenantId } });
      return { row, also: await withIt(row) };
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

  /** Deletes the webhook and its own signing secrets, together. */
  delete(tenantId: string, id: string): Promise<boolean> {
    return this.prisma.transactional(async () => {
      const { count } = await this.prisma.webhook.deleteMany({ where: { tenantId, id } });
      await this.prisma.webhookSecret.deleteMany({ where: { tenantId, webhookId: id } });
      return count > 0;
    });
  }

  /**
   * After sustained failure or a `410 Gone`: the webhook is disabled (once; an update re-enables it). Returns it when
   * this call disabled it, so exactly one notice goes out. With `failPending` (the receiver is gone) its deliveries
   * that wait for a retry and are not under way fail in the same transaction, with that as their last error, so none
   * is attempted again (one under way ends as its answer says).
   */
  disable(tenantId: string, id: string, failPending?: string): Promise<WebhookRow | null> {
    return this.prisma.transactional(async () => {
      const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
        UPDATE webhooks SET status = 'disabled', modified_at = now() WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND status = 'enabled' RETURNING id`;
      if (!rows.length) return null;
      if (failPending !== undefined)
        await this.prisma.$executeRaw`
          UPDATE webhook_deliveries SET status = 'failed', last_error = ${failPending}
          WHERE tenant_id = ${tenantId}::uuid AND webhook_id = ${id}::uuid AND status = 'pending' AND (locked_until IS NULL OR locked_until < now())`;
      return this.find(tenantId, id);
    });
  }
}
