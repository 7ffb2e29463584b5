import { Injectable } from '@nestjs/common';
import { forbidden, notFound } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { callerAndTrace } from '@coffer/operations';
import { AuditRepository } from '../audit/audit.repository';
import { TokenRepository } from './token.repository';
import { tokenDeleted } from './token-events';

@Injectable()
export class DeleteTokenUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly audit: AuditRepository,
  ) {}

  async execute(id: string): Promise<void> {
    const { principal, traceId } = callerAndTrace();
    const row = await this.tokens.find(principal.tenantId, id);
    if (!row) throw notFound('token');
    if (!decideTokenAccess(principal, 'token:delete', { id: row.id, container: row.container }).allowed)
      throw forbidden('The API key may not delete this token');
    if (!(await this.tokens.delete(principal.tenantId, id, tokenDeleted(principal, traceId, id)))) throw notFound('token');
    await this.audit.record(principal.tenantId, [
      { actorApplicationId: principal.applicationId, operation: 'delete', entityType: 'token', entityId: id, traceId },
    ]);
  }
}
