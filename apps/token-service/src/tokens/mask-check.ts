import { ExpressionError, evaluateMask } from '@coffer/expression';
import type { FieldErrors } from '@coffer/contracts';

/**
 * Invariant 5: a mask is evaluated against the data at write time, under the read path's limits, so a token that
 * is stored can always be read. A mask that fails is the writer's 400 (at `mask`), and nothing is written.
 */
export function checkMaskEvaluates(mask: unknown, data: unknown, errors: FieldErrors, path = 'mask'): void {
  if (mask === null || mask === undefined) return;
  try {
    evaluateMask(mask, data);
  } catch (err) {
    errors.add(path, err instanceof ExpressionError ? `cannot be evaluated against the data: ${err.message}` : 'cannot be evaluated against the data');
  }
}
