import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Observable, from, of, switchMap, tap, catchError, throwError } from 'rxjs';
import { ProblemError } from '@coffer/contracts';
import { PrismaService } from '@coffer/db';
import type { GatewayRequest } from '../http/gateway-request';

const RETENTION_MS = 24 * 3600_000;
const METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * SVC-IDEMPOTENCY-KEY (conventions §1): the first successful response (status and body) is kept 24 h per
 * application and key and replayed for repeats; a repeat while the first is in flight is a 409; a failed first
 * attempt leaves nothing behind, so it is processed again. The claim is an INSERT … ON CONFLICT, so two gateway
 * replicas agree.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor, OnModuleInit, OnModuleDestroy {
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly prisma: PrismaService) {}

  onModuleInit(): void {
    this.sweeper = setInterval(() => {
      void this.prisma.$executeRaw`DELETE FROM idempotency_records WHERE created_at < now() - interval '24 hours'`.catch(() => undefined);
    }, 3600_000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const key = req.idempotencyKey;
    const principal = req.principal;
    if (!key || !principal || !METHODS.has(req.method)) return next.handle();
    if (key.length > 255) throw new ProblemError(400, 'The idempotency key must be at most 255 characters');
    const owner = principal.sessionId ?? principal.applicationId;
    return from(this.claim(owner, key, req)).pipe(
      switchMap((stored) => {
        if (stored) {
          void reply.status(stored.status);
          void reply.header('svc-idempotent-replay', 'true');
          return of(stored.body === null ? undefined : JSON.parse(stored.body));
        }
        return next.handle().pipe(
          tap({
            next: (body) => void this.complete(owner, key, reply.statusCode, body),
          }),
          catchError((err) => from(this.release(owner, key)).pipe(switchMap(() => throwError(() => err)))),
        );
      }),
    );
  }

  /** Returns the stored response for a repeat, null when this request may proceed; throws 409 while in flight. */
  private async claim(owner: string, key: string, req: GatewayRequest): Promise<{ status: number; body: string | null } | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await this.prisma.$queryRaw<Array<{ key: string }>>`
        INSERT INTO idempotency_records (application_id, key, method, path, created_at)
        VALUES (${owner}::uuid, ${key}, ${req.method}, ${req.url}, now())
        ON CONFLICT DO NOTHING RETURNING key`;
      if (claimed.length) return null;
      const rows = await this.prisma.$queryRaw<Array<{ status: number | null; body: string | null; created_at: Date }>>`
        SELECT status, body, created_at FROM idempotency_records WHERE application_id = ${owner}::uuid AND key = ${key}`;
      const row = rows[0];
      if (!row) continue;
      if (Date.now() - row.created_at.getTime() > RETENTION_MS) {
        await this.release(owner, key);
        continue;
      }
      if (row.status === null) throw new ProblemError(409, 'A request with this idempotency key is still in progress');
      return { status: row.status, body: row.body };
    }
    throw new ProblemError(409, 'A request with this idempotency key is still in progress');
  }

  private async complete(owner: string, key: string, status: number, body: unknown): Promise<void> {
    if (status >= 300) return this.release(owner, key);
    await this.prisma.$executeRaw`
      UPDATE idempotency_records SET status = ${status}, body = ${body === undefined ? null : JSON.stringify(body)}, completed_at = now()
      WHERE application_id = ${owner}::uuid AND key = ${key}`;
  }

  private async release(owner: string, key: string): Promise<void> {
    await this.prisma.$executeRaw`DELETE FROM idempotency_records WHERE application_id = ${owner}::uuid AND key = ${key}`;
  }
}
