import { MessagePattern } from '@nestjs/microservices';
import type { OperationRow } from '@coffer/contracts';

/**
 * Marks a handler method as the function of an operation row: `@Operation(OPS.token.tokens.create)`. The method is
 * called with a Command (see OperationDispatcher), never with the raw envelope.
 */
export function Operation(row: OperationRow<unknown, unknown>): MethodDecorator {
  return MessagePattern(row.subject);
}
