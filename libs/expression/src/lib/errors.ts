/**
 * The only error type thrown by `@coffer/expression`.
 *
 * Messages may name variables, filters, tags, token positions and mask paths, but never contain data values.
 */
export type ExpressionErrorCode =
  | 'syntax'
  | 'unknown_variable'
  | 'unknown_filter'
  | 'forbidden_tag'
  | 'invalid_argument'
  | 'limit_exceeded'
  /** the request's expression budget (ExpressionBudget) is spent */
  | 'budget_exceeded'
  | 'evaluation'
  | 'invalid_token_id'
  | 'invalid_expression';

export class ExpressionError extends Error {
  readonly code: ExpressionErrorCode;

  constructor(message: string, code: ExpressionErrorCode = 'evaluation') {
    super(message);
    this.name = 'ExpressionError';
    this.code = code;
  }
}

interface LiquidLikeError {
  name?: unknown;
  message?: unknown;
  originalError?: unknown;
}

/** The message of a render stopped by its time limit. */
export const RENDER_TIME_MESSAGE = 'render time limit exceeded (the expression took too long)';

const LIMIT_MESSAGES: Record<string, string> = {
  'template render limit exceeded': RENDER_TIME_MESSAGE,
  'memory alloc limit exceeded': 'memory limit exceeded',
  'parse length limit exceeded': 'template length limit exceeded',
};

/** First line of a liquidjs message, without the source excerpt liquidjs appends on later lines. */
function firstLine(message: string): string {
  const nl = message.indexOf('\n');
  return nl === -1 ? message : message.slice(0, nl);
}

/**
 * Converts anything thrown while parsing or rendering into an ExpressionError.
 *
 * Parse-phase messages come from the template text only and are kept (first line). Render-phase messages of
 * foreign errors may contain data (a built-in filter's TypeError, for example) and are replaced by a generic
 * message.
 */
export function toExpressionError(err: unknown, phase: 'parse' | 'render'): ExpressionError {
  if (err instanceof ExpressionError) return err;
  // Walk liquidjs' wrapping chain (RenderError -> AssertionError / our error).
  let cur: unknown = err;
  for (let depth = 0; depth < 8 && cur && typeof cur === 'object'; depth++) {
    if (cur instanceof ExpressionError) return cur;
    const e = cur as LiquidLikeError;
    if (typeof e.message === 'string') {
      const head = firstLine(e.message).replace(/, line:\d+, col:\d+$/, '');
      const limit = LIMIT_MESSAGES[head];
      if (limit) return new ExpressionError(limit, 'limit_exceeded');
    }
    cur = e.originalError;
  }
  if (err instanceof RangeError) {
    return new ExpressionError('expression too complex (stack limit exceeded)', 'limit_exceeded');
  }
  if (phase === 'parse' && err && typeof err === 'object') {
    const e = err as LiquidLikeError;
    const msg = typeof e.message === 'string' ? firstLine(e.message) : 'invalid template';
    const undefinedFilter = /^undefined filter: ([^,\s]+)/.exec(msg);
    if (undefinedFilter) return new ExpressionError(`unknown filter "${undefinedFilter[1]}"`, 'unknown_filter');
    const unknownTag = /^tag "([^"]*)" not found/.exec(msg);
    if (unknownTag) return new ExpressionError(`unknown tag "${unknownTag[1]}"`, 'syntax');
    return new ExpressionError(`invalid template: ${truncate(msg, 300)}`, 'syntax');
  }
  let where = '';
  if (err && typeof err === 'object' && typeof (err as LiquidLikeError).message === 'string') {
    const pos = /line:(\d+), col:(\d+)/.exec(firstLine((err as { message: string }).message));
    if (pos) where = ` at line ${pos[1]}, column ${pos[2]}`;
  }
  return new ExpressionError(`expression evaluation failed${where}`, 'evaluation');
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}
