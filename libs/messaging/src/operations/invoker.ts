import type { RpcEnvelope } from '@coffer/contracts';

/**
 * The transport's hook around every request handler: given the subject and the envelope as received, the invoker
 * decides what the handler is called with. `call(data)` runs the Nest handler registered for the subject with `data`
 * as its payload and resolves with its reply, or rejects.
 */
export type HandlerInvoker = (subject: string, envelope: RpcEnvelope, call: (data: unknown) => Promise<unknown>) => Promise<unknown>;
