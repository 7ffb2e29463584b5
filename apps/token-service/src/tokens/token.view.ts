import type { Transform, TokenView } from '@coffer/contracts';
import { ExpressionBudget, ExpressionError, evaluateMask } from '@coffer/expression';
import { createLogger, type Logger } from '@coffer/observability';
import type { TokenRow } from './token.repository';

let logger: Logger | undefined;

/** A mask already evaluated over the data being shown (a create evaluates it before writing): not evaluated again. */
export interface Premasked {
  readonly value: unknown;
}

/**
 * The token as a caller sees it: data revealed, masked (mask evaluated; none → redacted) or redacted (omitted).
 * The mask is charged to `budget`, the request's; a mask that does not fit in what remains is redacted.
 */
export function toTokenView(row: TokenRow, data: unknown, transform: Transform, budget: ExpressionBudget, premasked?: Premasked): TokenView {
  const view: TokenView = { id: row.id, tenant_id: row.tenant_id, type: row.type, containers: [row.container] };
  if (transform === 'reveal') view.data = data;
  else if (transform === 'mask' && row.mask !== null && row.mask !== undefined) {
    const masked = premasked ? premasked.value : maskOrRedact(row, data, budget);
    if (masked !== null && masked !== undefined) view.data = masked;
  }
  if (row.mask !== null && row.mask !== undefined) view.mask = row.mask;
  view.fingerprint = row.fingerprint;
  view.fingerprint_expression = row.fingerprint_expression;
  view.containers = [row.container];
  view.metadata = row.metadata ?? {};
  if (row.search_indexes?.length) view.search_indexes = row.search_indexes;
  if (row.expires_at) view.expires_at = row.expires_at.toISOString();
  if (row.created_by) view.created_by = row.created_by;
  view.created_at = row.created_at.toISOString();
  if (row.modified_by) view.modified_by = row.modified_by;
  if (row.modified_at) view.modified_at = row.modified_at.toISOString();
  return view;
}

/** What a caller without read access learns about a deduplicated token (docs/tokens.md). */
export function toLimitedView(row: TokenRow): TokenView {
  return { id: row.id, type: row.type, tenant_id: row.tenant_id, fingerprint: row.fingerprint, containers: [row.container] };
}

/** PATCH that resolved to another token the caller cannot read: the sensitive parts are omitted. */
export function toRedactedView(row: TokenRow): TokenView {
  const view = toTokenView(row, undefined, 'redact', NO_EVALUATION);
  delete view.metadata;
  delete view.fingerprint_expression;
  delete view.search_indexes;
  delete view.mask;
  return view;
}

/** Redacted views evaluate nothing; a budget is still required by toTokenView's signature. */
const NO_EVALUATION = ExpressionBudget.single();

/**
 * Invariant 5: a read never fails because of one stored token, and never shows more than the caller's transform.
 * A mask that cannot be evaluated — stored before the write-time check, after a limit was lowered, or because the
 * request's expression budget is spent (a page of tokens whose masks are each allowed but together too slow) — is
 * returned redacted (less revealing, never an error), and the event logged with ids and the error class only.
 */
function maskOrRedact(row: TokenRow, data: unknown, budget: ExpressionBudget): unknown {
  try {
    return evaluateMask(row.mask, data, budget);
  } catch (err) {
    logger ??= createLogger('token-service');
    logger.warn(
      { tenantId: row.tenant_id, tokenId: row.id, code: err instanceof ExpressionError ? err.code : 'error' },
      'mask could not be evaluated: token returned redacted',
    );
    return undefined;
  }
}
