import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { type Observable, lastValueFrom, map, of, tap } from 'rxjs';
import { composeInterceptors } from './interceptor-chain';

const context = {} as ExecutionContext;

function recording(name: string, log: string[]): NestInterceptor {
  return {
    intercept(_ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
      log.push(`${name} before`);
      return next.handle().pipe(
        map((v) => `${name}(${v})`),
        tap(() => log.push(`${name} after`)),
      );
    },
  };
}

describe('composeInterceptors', () => {
  it('runs the interceptors in order around the handler, as separate global interceptors would', async () => {
    const log: string[] = [];
    const handler = { handle: () => of('h').pipe(tap(() => log.push('handler'))) };
    const out = await lastValueFrom(composeInterceptors(recording('a', log), recording('b', log)).intercept(context, handler) as Observable<unknown>);
    expect(out).toBe('a(b(h))');
    expect(log).toEqual(['a before', 'b before', 'handler', 'b after', 'a after']);
  });

  it('starts the next layer only when its handle() is subscribed', () => {
    let handled = 0;
    const lazy: NestInterceptor = { intercept: (_c, next) => (next.handle(), of('short-circuit')) };
    composeInterceptors(lazy).intercept(context, { handle: () => (handled++, of('h')) });
    expect(handled).toBe(0);
  });

  it('lets an interceptor throw before the handler runs (a 400 from a guard-like check)', () => {
    const refusing: NestInterceptor = {
      intercept: () => {
        throw new Error('refused');
      },
    };
    expect(() => composeInterceptors(refusing).intercept(context, { handle: () => of('h') })).toThrow('refused');
  });

  it('accepts an interceptor that answers with a promise of an observable', async () => {
    const asyncOne: NestInterceptor = { intercept: async (_c, next) => next.handle().pipe(map((v) => `async(${v})`)) };
    const out = await lastValueFrom(composeInterceptors(asyncOne).intercept(context, { handle: () => of('h') }) as Observable<unknown>);
    expect(out).toBe('async(h)');
  });
});
