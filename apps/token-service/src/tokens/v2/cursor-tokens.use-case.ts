import { Injectable } from '@nestjs/common';
import { FieldErrors, SearchTokensV2Request, validateContract, type Principal, type TokenView } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { AuditLog } from '@coffer/db';
import { asCaller } from '@coffer/operations';
import { tokenActs } from '../../audit/audit.repository';
import { TokenRepository, type TokenListFilter } from '../token.repository';
import { TokenVault } from '../token-vault';
import { toTokenView } from '../token.view';
import { readBudget } from '../expression-budgets';
import { accessPredicate } from '../token-access.sql';
import { compileSearch } from '../search/search-query';
import { TokenCursors, type CursorScope } from './token-cursor';
import { parseCursorWindow, parseV2ListFilter, type CursorWindow } from './list-query-v2';

/** The reply of the v2 lists, as the node SDK parses it (`TokenCursorPaginatedList`): no totals, `next` when more. */
export interface CursorPage {
  data: TokenView[];
  pagination: { page_size: number; next?: string };
}

/**
 * GET /v2/tokens and POST /v2/tokens/search: the same filters, access rules and transforms as v1, paged only by
 * keyset (created_at desc, id desc), so the cost of a page does not grow with the depth of the list. The access
 * predicate filters in SQL; every row is decided again with decideTokenAccess before anything is decrypted.
 */
@Injectable()
export class CursorTokensUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly vault: TokenVault,
    private readonly audit: AuditLog,
    private readonly cursors: TokenCursors,
  ) {}

  async list(query: Record<string, unknown>, deadline?: number): Promise<CursorPage> {
    const { principal, traceId } = asCaller();
    const errors = new FieldErrors();
    const window = parseCursorWindow(query, errors, true);
    const { filter, canonical } = parseV2ListFilter(query, errors);
    errors.throwIfAny('The query is invalid');
    const page = await this.page(principal, 'token:read', filter, { operation: 'list', filter: canonical }, window, deadline);
    await this.audit.append(...tokenActs(principal, traceId, 'read', 'token', ...page.data.map((t) => t.id)));
    return page;
  }

  /** `query` is the search language of v1; absent or blank, every token the caller may search. */
  async search(body: unknown, deadline?: number): Promise<CursorPage> {
    const { principal, traceId } = asCaller();
    const req = validateContract(SearchTokensV2Request, body ?? {});
    const window = parseCursorWindow(req, new FieldErrors(), false);
    const query = req.query;
    const text = typeof query === 'string' ? query : '';
    const filter: TokenListFilter = text.trim()
      ? { where: compileSearch(text, { tenantId: principal.tenantId, digest: await this.vault.searchDigester(principal.tenantId) }) }
      : {};
    const page = await this.page(principal, 'token:search', filter, { operation: 'search', filter: text }, window, deadline);
    await this.audit.append(...tokenActs(principal, traceId, 'search', 'token', '*'));
    return page;
  }

  /** `deadline`: the caller's (performance.now() scale); the query is cancelled in PostgreSQL when it passes. */
  private async page(
    principal: Principal,
    permission: 'token:read' | 'token:search',
    filter: TokenListFilter,
    scope: CursorScope,
    window: CursorWindow,
    deadline?: number,
  ): Promise<CursorPage> {
    const tenantId = principal.tenantId;
    const position = await this.cursors.open(tenantId, scope, window.start);
    const fetched = await this.tokens.keyset(tenantId, filter, position, window.size, accessPredicate(principal, permission), deadline);
    const rows = fetched.slice(0, window.size);
    const data: TokenView[] = [];
    const budget = readBudget();
    for (const row of rows) {
      const decision = decideTokenAccess(principal, permission, { id: row.id, container: row.container });
      if (!decision.allowed) continue;
      const plain = decision.transform === 'redact' ? undefined : await this.vault.decrypt(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
      data.push(toTokenView(row, plain, decision.transform, budget));
    }
    const pagination: CursorPage['pagination'] = { page_size: window.size };
    const last = rows[rows.length - 1];
    if (fetched.length > window.size && last) pagination.next = await this.cursors.seal(tenantId, scope, { at: last.position_at, id: last.id });
    return { data, pagination };
  }
}
