export { ExpressionError } from './lib/errors';
export type { ExpressionErrorCode } from './lib/errors';
export type { ExpressionScope, ScopeName } from './lib/engine';
export { LIMITS } from './lib/limits';
export { isExpression, validateTemplate, evaluate, renderToString } from './lib/expression';
export { evaluateMask, validateMask } from './lib/mask';
export type { MaskProblem } from './lib/mask';
export { findDetokenizationExpressions, substituteDetokenization, isValidTokenId } from './lib/detokenization';
export { castToNumber, castToBoolean, castToString, canonicalJson } from './lib/filters';
