import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { JSON_LIMIT_MESSAGES, ProblemError } from '@coffer/contracts';

/** A query parameter name shown in `errors` as it is; anything else is reported as `query`. */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const hasNul = (s: string) => s.indexOf('\u0000') !== -1;

/**
 * Query parameters holding NUL (`%00`) are a 400 on every route, before any service sees them: PostgreSQL cannot
 * compare text holding U+0000 (list filters, `name`, `entity_id`, cursors would otherwise be a 500). Runs after the
 * guards, like every other validation of the query. Path parameters are the services' (an id holding NUL cannot
 * exist: 404, like any other impossible id).
 */
export class QueryInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const query = ctx.switchToHttp().getRequest<{ query?: unknown }>().query;
    if (typeof query === 'object' && query !== null) {
      for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
        const values = Array.isArray(value) ? value : [value];
        if (hasNul(name) || values.some((v) => typeof v === 'string' && hasNul(v))) {
          const field = !hasNul(name) && PARAM_NAME.test(name) ? name : 'query';
          throw new ProblemError(400, 'The query is invalid', { [field]: [JSON_LIMIT_MESSAGES.nul] });
        }
      }
    }
    return next.handle();
  }
}
