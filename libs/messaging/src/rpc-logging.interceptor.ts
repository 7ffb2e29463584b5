import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { type Observable, tap } from 'rxjs';
import type { RpcEnvelope } from '@coffer/contracts';
import type { Logger } from '@coffer/observability';

/**
 * One log line per handled RPC with the caller's trace id (SVC-TRACE-ID, carried in the envelope), the subject,
 * tenant and duration. Never the payload: it carries token data and keys.
 */
export class RpcLoggingInterceptor implements NestInterceptor {
  constructor(private readonly logger: Logger) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpc = ctx.switchToRpc();
    const env = rpc.getData<RpcEnvelope | undefined>();
    const subject = (rpc.getContext() as { getSubject?: () => string })?.getSubject?.();
    const started = performance.now();
    const fields = { traceId: env?.traceId, subject, tenantId: env?.principal?.tenantId, applicationId: env?.principal?.applicationId };
    return next.handle().pipe(
      tap({
        next: () => this.logger.debug({ ...fields, ms: +(performance.now() - started).toFixed(1) }, 'rpc'),
        error: (err: { problem?: { status?: number } }) =>
          this.logger.info({ ...fields, status: err?.problem?.status ?? 500, ms: +(performance.now() - started).toFixed(1) }, 'rpc failed'),
      }),
    );
  }
}
