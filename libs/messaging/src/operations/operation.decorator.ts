import { MessagePattern } from '@nestjs/microservices';
import type { OperationRow } from '@coffer/contracts';

/** Every `@Operation` of the loaded code: the row's subject → the `Class.method`s that declare they handle it. */
const declared = new Map<string, string[]>();

/**
 * Marks a handler method as the function of an operation row: `@Operation(OPS.token.tokens.create)`. The method is
 * called with a Command (see OperationDispatcher), never with the raw envelope. Each use is remembered, so a service
 * refuses to start when two methods claim one row (Nest would keep the last one silently: handler-coverage.ts).
 */
export function Operation(row: OperationRow<unknown, unknown>): MethodDecorator {
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
