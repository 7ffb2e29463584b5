import { ExpressionError, evaluateMask, type ExpressionBudget } from '@coffer/expression';
import type { FieldErrors } from '@coffer/contracts';
import type { Premasked } from './token.view';

/**
 * Invariant 5: a mask is evaluated against the data at write time, under the request's expression budget (never
 * larger than a read's), so a token that is stored can always be read. A mask that fails — or does not fit in the
 * budget — is the writer's 400 (at `mask`), and nothing is written. Returns the masked value for the write's reply.
 */
export function checkMaskEvaluates(mask: unknown, data: unknown, errors: FieldErrors, budget: ExpressionBudget, path = 'mask'): Premasked | undefined {
  if (mask === null || mask === undefined) return undefined;
  try {
    return { value: evaluateMask(mask, data, budget) };
  } catch (err) {
    errors.add(path, err instanceof ExpressionError ? `cannot be evaluated against the data: ${err.message}` : 'cannot be evaluated against the data');
    return undefined;
  }
}
