import { Injectable } from '@nestjs/common';
import { FieldErrors, SearchTokensRequest, offsetPage, pageOffset, parsePageBody, validateContract, type Page, type TokenView } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { AuditLog } from '@coffer/db';
import { asCaller } from '@coffer/operations';
import { tokenActs } from '../../audit/audit.repository';
import { TokenRepository } from '../token.repository';
import { TokenVault } from '../token-vault';
import { toTokenView } from '../token.view';
import { readBudget } from '../expression-budgets';
import { accessPredicate } from '../token-access.sql';
import { compileSearch } from './search-query';

@Injectable()
export class SearchTokensUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly vault: TokenVault,
    private readonly audit: AuditLog,
  ) {}

  /** `deadline`: the caller's (performance.now() scale); the query is cancelled in PostgreSQL when it passes. */
  async execute(body: unknown, deadline?: number): Promise<Page<TokenView>> {
    const { principal, traceId } = asCaller();
    const req = validateContract(SearchTokensRequest, body ?? {});
    const page = parsePageBody(req as unknown as Record<string, unknown>, new FieldErrors());
    const where = compileSearch(req.query, { tenantId: principal.tenantId, digest: await this.vault.searchDigester(principal.tenantId) });
    const { rows, total } = await this.tokens.page(
      principal.tenantId,
      { where },
      pageOffset(page),
      page.size,
      accessPredicate(principal, 'token:search'),
      deadline,
    );
    const data: TokenView[] = [];
    const budget = readBudget();
    for (const row of rows) {
      const d = decideTokenAccess(principal, 'token:search', { id: row.id, container: row.container });
      if (!d.allowed) continue;
      const plain = d.transform === 'redact' ? undefined : await this.vault.decrypt(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
      data.push(toTokenView(row, plain, d.transform, budget));
    }
    await this.audit.append(...tokenActs(principal, traceId, 'search', 'token', '*'));
    return offsetPage(data, total, page);
  }
}
