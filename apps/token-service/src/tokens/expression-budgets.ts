import { ExpressionBudget } from '@coffer/expression';
import { tokenServiceConfig } from '../config';

/**
 * One budget per request for everything the expression engine evaluates for it (docs/availability.md, "The
 * expression engine's CPU budget"). Writes are refused when theirs is spent; reads redact what does not fit.
 */
export function writeBudget(): ExpressionBudget {
  const c = tokenServiceConfig();
  return new ExpressionBudget(c.expressionWriteBudgetMs, c.expressionTemplateMs);
}

export function readBudget(): ExpressionBudget {
  const c = tokenServiceConfig();
  return new ExpressionBudget(c.expressionReadBudgetMs, c.expressionTemplateMs);
}
