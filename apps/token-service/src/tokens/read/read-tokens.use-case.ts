import { Injectable } from '@nestjs/common';
import { ProblemError, cursorPage, forbidden, notFound, offsetPagination, parseListWindow, type Cursor, type Page, type TokenView } from '@coffer/contracts';
import { decideTokenAccess } from '@coffer/auth';
import { AuditLog } from '@coffer/db';
import { asCaller } from '@coffer/operations';
import { tokenActs } from '../../audit/audit.repository';
import { TokenRepository, type TokenListFilter, type TokenRow } from '../token.repository';
import { TokenVault } from '../token-vault';
import { toTokenView } from '../token.view';
import { readBudget } from '../expression-budgets';
import type { ExpressionBudget } from '@coffer/expression';
import { TokenReads } from './token-reads';
import { accessPredicate } from '../token-access.sql';
import { storableDate } from '../../storable-date';

@Injectable()
export class ReadTokensUseCase {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly vault: TokenVault,
    private readonly audit: AuditLog,
    private readonly reads: TokenReads,
  ) {}

  async get(id: string): Promise<TokenView> {
    const { principal, traceId } = asCaller();
    if (typeof id !== 'string' || !id) throw notFound('token');
    // reads are batched (TokenReads): the caller travels with this read as data, never read in the flushing context
    const { row, audited } = await this.reads.find(principal, traceId, id);
    if (!row) throw notFound('token');
    const decision = decideTokenAccess(principal, 'token:read', { id: row.id, container: row.container });
    if (!decision.allowed) throw forbidden('The API key may not read this token');
    // Read alone, the event was written with the row where the SQL form of this decision allowed it; read in a batch
    // (or should the two forms ever disagree), it is written here. Either way, before the reply.
    if (!audited) await this.audit.append(...tokenActs(principal, traceId, 'read', 'token', row.id));
    return this.view(row, decision.transform, readBudget());
  }

  /** `deadline`: the caller's (performance.now() scale); the query is cancelled in PostgreSQL when it passes. */
  async list(query: Record<string, unknown>, deadline?: number): Promise<Page<TokenView>> {
    const { principal, traceId } = asCaller();
    // a filter holding NUL is refused before the paging is looked at (both are 400s)
    const filter = parseListFilter(query);
    const window = parseListWindow(query);
    // a cursor is the client's to send back: one holding a date PostgreSQL cannot hold is a bad cursor, not a 500
    if (window.kind === 'cursor' && window.cursor && !storableDate(window.cursor.createdAt))
      throw new ProblemError(400, 'The query is invalid', { start: ['is not a valid cursor'] });
    const access = accessPredicate(principal, 'token:read');
    let rows: TokenRow[];
    let pagination: Page<TokenView>['pagination'];
    if (window.kind === 'cursor') {
      const page = cursorPage(
        await this.tokens.after(principal.tenantId, filter, window.cursor, window.req.size, access, deadline),
        window.req.size,
        positionOf,
      );
      rows = page.data;
      pagination = page.pagination;
    } else {
      const result = await this.tokens.page(principal.tenantId, filter, window.offset, window.req.size, access, deadline);
      rows = result.rows;
      pagination = offsetPagination(result.total, window.req);
    }
    const data: TokenView[] = [];
    // one budget for the page: masks that do not fit in what remains are redacted (token.view.ts)
    const budget = readBudget();
    for (const row of rows) {
      const decision = decideTokenAccess(principal, 'token:read', { id: row.id, container: row.container });
      if (decision.allowed) data.push(await this.view(row, decision.transform, budget));
    }
    await this.audit.append(...tokenActs(principal, traceId, 'read', 'token', ...data.map((t) => t.id)));
    return { pagination, data };
  }

  private async view(row: TokenRow, transform: 'reveal' | 'mask' | 'redact', budget: ExpressionBudget): Promise<TokenView> {
    const data = transform === 'redact' ? undefined : await this.vault.decrypt(row.tenant_id, row.id, row.data_key_id, row.data_ciphertext);
    return toTokenView(row, data, transform, budget);
  }
}

/** Where a token sits in the (created_at desc, id desc) order of cursor pages. */
function positionOf(row: TokenRow): Cursor {
  return { createdAt: row.created_at.toISOString(), id: row.id };
}

function many(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/**
 * `id` and `type` repeat; `metadata.<key>` matches case-insensitively; a repeated metadata key counts once. A filter
 * holding NUL is a 400 (PostgreSQL cannot compare text holding U+0000; the gateway refuses it too, `svc` does not pass
 * through the gateway).
 */
export function parseListFilter(query: Record<string, unknown>): TokenListFilter {
  const nul = (field: string) => new ProblemError(400, 'The query is invalid', { [field]: ['must not contain the NUL character (U+0000)'] });
  const filter: TokenListFilter = {};
  const ids = many(query['id']);
  const types = many(query['type']);
  if (ids.some((v) => v.includes('\u0000'))) throw nul('id');
  if (types.some((v) => v.includes('\u0000'))) throw nul('type');
  if (ids.length) filter.ids = ids;
  if (types.length) filter.types = types;
  // no prototype: `?metadata.constructor=x` filters on that key (on a plain object, `in` would find Object's own and skip it)
  const metadata: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(query)) {
    if (!k.startsWith('metadata.') || k.length === 'metadata.'.length) continue;
    if (k.includes('\u0000')) throw nul('metadata');
    const key = k.slice('metadata.'.length).toLowerCase();
    if (key in metadata) continue;
    const value = many(v)[0];
    if (value !== undefined && value.includes('\u0000')) throw nul(k);
    if (value !== undefined) metadata[key] = value.toLowerCase();
  }
  if (Object.keys(metadata).length) filter.metadata = metadata;
  return filter;
}
