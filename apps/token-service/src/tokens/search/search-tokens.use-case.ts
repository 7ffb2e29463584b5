import { Injectable } from '@nestjs/common';
import { FieldErrors, MAX_PAGE, MAX_PAGE_SIZE, type Page, type Principal, type TokenView } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { AuditRepository } from '../../audit/audit.repository';
import { TokenRepository } from '../token.repository';
import { TokenVault } from '../token-vault';
import { toTokenView } from '../token.view';
import { accessPredicate } from '../token-access.sql';
import { compileSearch } from './search-query';

@Injectable()
export class SearchTokensUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly vault: TokenVault,
    private readonly audit: AuditRepository,
  ) {}

  async execute(principal: Principal, traceId: string, body: unknown): Promise<Page<TokenView>> {
    const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const errors = new FieldErrors();
    const page = b['page'] === undefined ? 1 : b['page'];
    const size = b['size'] === undefined ? 20 : b['size'];
    // the same bounds as the query form of every list (libs/contracts pagination): a huge page is a 400, not a 500
    if (!Number.isInteger(page) || (page as number) < 1 || (page as number) > MAX_PAGE) errors.add('page', `must be an integer between 1 and ${MAX_PAGE}`);
    if (!Number.isInteger(size) || (size as number) < 0 || (size as number) > MAX_PAGE_SIZE) errors.add('size', `must be an integer between 0 and ${MAX_PAGE_SIZE}`);
    if (typeof b['query'] !== 'string') errors.add('query', 'is required');
    errors.throwIfAny('The search request is invalid');
    const where = compileSearch(b['query'] as string, { digest: await this.vault.searchDigester(principal.tenantId) });
    const { rows, total } = await this.tokens.page(
      principal.tenantId,
      { where },
      ((page as number) - 1) * (size as number),
      size as number,
      accessPredicate(principal, 'token:search'),
    );
    const data: TokenView[] = [];
    for (const row of rows) {
      const d = decideTokenAccess(principal, 'token:search', { id: row.id, container: row.container });
      if (!d.allowed) continue;
      const plain = d.transform === 'redact' ? undefined : await this.vault.decrypt(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
      data.push(toTokenView(row, plain, d.transform));
    }
    await this.audit.record(principal.tenantId, [
      { actorApplicationId: principal.applicationId, operation: 'search', entityType: 'token', entityId: '*', traceId },
    ]);
    return {
      pagination: {
        total_items: total,
        page_number: page as number,
        page_size: size as number,
        total_pages: size === 0 ? 0 : Math.ceil(total / (size as number)),
      },
      data,
    };
  }
}
