import { Injectable } from '@nestjs/common';
import { forbidden, notFound } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { PrismaService } from '@coffer/db';
import { callerAndTrace } from '@coffer/operations';
import { AuditRepository } from '../audit/audit.repository';
import { TokenRepository } from './token.repository';
import { tokenDeleted } from './token-events';

@Injectable()
export class DeleteTokenUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly audit: AuditRepository,
    private readonly prisma: PrismaService,
  ) {}

  async execute(id: string): Promise<void> {
    const { principal, traceId } = callerAndTrace();
    const row = await this.tokens.find(principal.tenantId, id);
    if (!row) throw notFound('token');
    if (!decideTokenAccess(principal, 'token:delete', { id: row.id, container: row.container }).allowed)
      throw forbidden('The API key may not delete this token');
    // the delete, its token.deleted event and its audit record commit together: never a delete nobody recorded
    await this.prisma.transactional(async () => {
      if (!(await this.tokens.delete(principal.tenantId, id, tokenDeleted(principal, traceId, id)))) throw notFound('token');
      await this.audit.record(principal.tenantId, [
        { actorApplicationId: principal.applicationId, operation: 'delete', entityType: 'token', entityId: id, traceId },
      ]);
    });
  }
}
