import type { FastifyRequest } from 'fastify';
import type { Principal } from '@coffer/contracts';
import type { CallContext } from '@coffer/messaging';

export type GatewayRequest = FastifyRequest & {
  principal?: Principal;
  traceId: string;
  idempotencyKey?: string;
};

export function callContext(req: GatewayRequest): CallContext {
  return { principal: req.principal, traceId: req.traceId };
}
