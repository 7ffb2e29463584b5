import { MessagePattern } from '@nestjs/microservices';
import type { IdempotentReplay, OperationRow } from '@coffer/contracts';

/**
 * What a handler of a row replying `R` may return: `R` (or a promise of it), or the replay of an earlier reply that the
 * idempotency wrapper recorded. The compiler holds every handler to its row's reply type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the command's type is the handler's own (Command<B> or narrower)
type HandlerOf<R> = (...args: any[]) => R | IdempotentReplay<R> | Promise<R | IdempotentReplay<R>>;

/** Every `@Operation` of the loaded code: the row's subject → the `Class.method`s that declare they handle it. */
const declared = new Map<string, string[]>();

/**
 * Marks a handler method as the function of an operation row: `@Operation(OPS.token.tokens.create)`. The method is
 * called with a Command (see OperationDispatcher), never with the raw envelope. Each use is remembered, so a service
 * refuses to start when two methods claim one row (Nest would keep the last one silently: handler-coverage.ts).
 */
export function Operation<B, R>(
  row: OperationRow<B, R>,
): <H extends HandlerOf<R>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>) => void {
  return handlerOf(row);
}

/**
 * `@Operation` for a row whose replies its replay codec renders (`OperationDispatcher.handle(row, {codec})`, e.g. a
 * react): the method returns what the codec records and renders, so the codec's type holds it, not the row's reply.
 */
export function RecordingOperation(row: OperationRow<unknown, unknown>): MethodDecorator {
  return handlerOf(row);
}

function handlerOf(row: OperationRow<unknown, unknown>): MethodDecorator {
  const pattern = MessagePattern(row.subject);
  return (target, key, descriptor) => {
    const where = `${(target as { constructor: { name: string } }).constructor.name}.${String(key)}`;
    declared.set(row.subject, [...(declared.get(row.subject) ?? []), where]);
    return pattern(target, key, descriptor);
  };
}

/** The handlers `@Operation` declared so far, by subject. */
export function declaredOperations(): ReadonlyMap<string, readonly string[]> {
  return declared;
}
