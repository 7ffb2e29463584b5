import { Injectable } from '@nestjs/common';
import { OPS, RPC_DEADLINE_MS } from '@coffer/contracts';
import { RpcClient, type CallContext } from '@coffer/bus';

/** The token-service operations an invocation needs; every call carries the principal it acts as. */
@Injectable()
export class TokenServiceClient {
  constructor(private readonly rpc: RpcClient) {}

  /** Replaces detokenization expressions (400 bad expression/unknown token/over 100 tokens, 403 a token not usable). */
  detokenize(ctx: CallContext, payload: unknown, path: string): Promise<unknown> {
    return this.rpc.call(OPS.token.tokens.detokenize, { payload, path }, ctx);
  }

  /**
   * Tokenizes like POST /tokenize (all-or-nothing); every token view of the reply also carries TOKENIZE_RENDERED,
   * the transform it was rendered at (capTokenizeReply removes it).
   */
  tokenize(ctx: CallContext, payload: unknown, deadlineMs: number = RPC_DEADLINE_MS.default): Promise<unknown> {
    return this.rpc.call(OPS.token.tokens.tokenize, { payload, rendered: true }, ctx, deadlineMs);
  }
}
