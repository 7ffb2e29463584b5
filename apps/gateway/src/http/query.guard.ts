import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { JSON_LIMIT_MESSAGES, ProblemError } from '@coffer/contracts';

/** A query parameter name shown in `errors` as it is; anything else is reported as `query`. */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const hasNul = (s: string) => s.indexOf('\u0000') !== -1;

/**
 * Query parameters holding NUL (`%00`) are a 400 on every route, before any service sees them: PostgreSQL cannot
 * compare text holding U+0000 (list filters, `name`, `entity_id`, cursors would otherwise be a 500). A guard placed
 * after the authentication, rate-limit and permission guards, so 401, 429 and 403 still come first; a guard rather than
 * an interceptor because Nest wraps any interceptor in async-context bindings that cost more than this check (issue 14).
 * Path parameters are the services' (an id holding NUL cannot exist: 404, like any other impossible id).
 */
export class QueryGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const query = ctx.switchToHttp().getRequest<{ query?: unknown }>().query;
    if (typeof query !== 'object' || query === null) return true;
    for (const name in query) {
      const value = (query as Record<string, unknown>)[name];
      const values = Array.isArray(value) ? value : [value];
      if (hasNul(name) || values.some((v) => typeof v === 'string' && hasNul(v))) {
        const field = !hasNul(name) && PARAM_NAME.test(name) ? name : 'query';
        throw new ProblemError(400, 'The query is invalid', { [field]: [JSON_LIMIT_MESSAGES.nul] });
      }
    }
    return true;
  }
}
