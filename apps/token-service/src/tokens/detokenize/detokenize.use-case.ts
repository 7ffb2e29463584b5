import { Injectable } from '@nestjs/common';
import { badRequest, forbidden, type JsonValue } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { AuditLog } from '@coffer/db';
import { asCaller } from '@coffer/operations';
import { ExpressionError, findDetokenizationExpressions, substituteDetokenization } from '@coffer/expression';
import { tokenActs } from '../../audit/audit.repository';
import { TokenRepository } from '../token.repository';
import { TokenVault } from '../token-vault';
import { readBudget } from '../expression-budgets';

export const MAX_DETOKENIZED = 100;

/**
 * Replaces `{{ <token id> | filters }}` expressions in any JSON with token data: one batched load, one access
 * decision per token (token:use, or token:read with the reveal transform). Used by POST /detokenize and by
 * reactor-service for invocation arguments.
 */
@Injectable()
export class DetokenizeUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly vault: TokenVault,
    private readonly audit: AuditLog,
  ) {}

  async execute(payload: unknown, path = 'body'): Promise<JsonValue> {
    const { principal, traceId } = asCaller();
    let ids: string[];
    try {
      ids = findDetokenizationExpressions(payload);
    } catch (err) {
      throw badRequest('The request contains an invalid detokenization expression', {
        [path]: [err instanceof ExpressionError ? err.message : 'invalid detokenization expression'],
      });
    }
    // JSON in, JSON out (the payload came off the bus as JSON): the request with each expression replaced by its value
    if (!ids.length) return payload as JsonValue;
    if (ids.length > MAX_DETOKENIZED)
      throw badRequest(`At most ${MAX_DETOKENIZED} tokens may be detokenized in one request`, { [path]: [`references ${ids.length} tokens`] });
    const rows = await this.tokens.findMany(principal.tenantId, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length) throw badRequest('The request references unknown tokens', { [path]: missing.map((id) => `token "${id}" was not found`) });
    for (const row of rows) {
      const ref = { id: row.id, container: row.container };
      const use = decideTokenAccess(principal, 'token:use', ref);
      const read = decideTokenAccess(principal, 'token:read', ref);
      if (!use.allowed && !(read.allowed && read.transform === 'reveal')) throw forbidden(`The API key may not use token "${row.id}"`);
    }
    const data = new Map<string, unknown>();
    for (const row of rows) data.set(row.id, await this.vault.decrypt(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext));
    let result: unknown;
    try {
      result = substituteDetokenization(payload, (id) => data.get(id), readBudget());
    } catch (err) {
      throw badRequest('A detokenization expression could not be evaluated', {
        [path]: [err instanceof ExpressionError ? err.message : 'could not be evaluated'],
      });
    }
    await this.audit.append(...tokenActs(principal, traceId, 'use', 'token', ...rows.map((r) => r.id)));
    return result as JsonValue;
  }
}
