import { Injectable } from '@nestjs/common';
import { forbidden, notFound } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { asCaller } from '@coffer/operations';
import { TokenRepository } from './token.repository';
import { tokenDeleted } from './token-events';

@Injectable()
export class DeleteTokenUseCase {
  constructor(private readonly tokens: TokenRepository) {}

  async execute(id: string): Promise<void> {
    const { principal, traceId } = asCaller();
    const row = await this.tokens.find(principal.tenantId, id);
    if (!row) throw notFound('token');
    if (!decideTokenAccess(principal, 'token:delete', { id: row.id, container: row.container }).allowed)
      throw forbidden('The API key may not delete this token');
    // the delete, its token.deleted event and its audit record commit together: never a delete nobody recorded
    const by = { actorApplicationId: principal.applicationId ?? null, traceId: traceId ?? null };
    if (!(await this.tokens.delete(principal.tenantId, id, tokenDeleted(principal, traceId, id), by))) throw notFound('token');
  }
}
