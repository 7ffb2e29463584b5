import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { type Observable, finalize } from 'rxjs';

/** Counts RPC handlers still running, so a shutdown can wait for them after it stops taking new ones. */
export class InFlightRequests implements NestInterceptor {
  private count = 0;
  private waiters: Array<() => void> = [];

  intercept(_ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    this.count++;
    return next.handle().pipe(
      finalize(() => {
        this.count--;
        if (this.count === 0) for (const w of this.waiters.splice(0)) w();
      }),
    );
  }

  get active(): number {
    return this.count;
  }

  idle(maxWaitMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, maxWaitMs);
      t.unref();
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}
