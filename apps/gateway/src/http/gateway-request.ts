import type { FastifyRequest } from 'fastify';
import type { Principal } from '@coffer/contracts';
import type { CallContext } from '@coffer/bus';

export type GatewayRequest = FastifyRequest & {
  principal?: Principal;
  traceId: string;
  /** set by the idempotency interceptor only on POST, PUT and PATCH */
  idempotencyKey?: string;
  /** the idempotency-key headers that carried different keys (IdempotencyKeyGuard refuses a write with a 400) */
  idempotencyKeyConflict?: string[];
  /** the owning service answered from its idempotency record */
  idempotentReplay?: boolean;
};

export function callContext(req: GatewayRequest): CallContext {
  if (req.idempotencyKey === undefined) return { principal: req.principal, traceId: req.traceId };
  return {
    principal: req.principal,
    traceId: req.traceId,
    idempotencyKey: req.idempotencyKey,
    onReplay: () => {
      req.idempotentReplay = true;
    },
  };
}
