import { Injectable } from '@nestjs/common';
import { OPS, badRequest } from '@coffer/contracts';
import { ExpressionError, findDetokenizationExpressions } from '@coffer/expression';
import { RpcClient } from '@coffer/bus';
import { asCaller } from '@coffer/operations';
import { payloadOf, readBody, writeBody, asText } from './request-body';
import { onlyOwnExpressions } from './own-expressions';

export interface OutgoingRequest {
  headers: [string, string][];
  body: Buffer;
  contentType: string | undefined;
}

/** The request with its expressions replaced, and the tokens that took (none when nothing was replaced). */
export interface DetokenizedRequest extends OutgoingRequest {
  usedTokenIds: string[];
}

/**
 * Replaces the detokenization expressions of a proxy request — in the body (JSON, form or text) and in header
 * values — through token-service's detokenize operation, as the caller: the same batched load, access decision per
 * token and audit record as POST /detokenize. One call per request, and none when nothing is to be replaced.
 */
@Injectable()
export class Detokenizer {
  constructor(private readonly rpc: RpcClient) {}

  /**
   * As the operation's caller (`asCaller()`: its access decides each token, and the audit records name it).
   * `own`: the only expressions that may be detokenized (ownExpressions), when a transform may have added others.
   */
  async detokenize(req: OutgoingRequest, own?: ReadonlySet<string>): Promise<DetokenizedRequest> {
    const ctx = asCaller();
    const shape = readBody(req.body, req.contentType);
    const headerAt = req.headers.map(([, v], i) => (v.includes('{{') ? i : -1)).filter((i) => i >= 0);
    if (shape.kind === 'opaque' && headerAt.length === 0) return { ...req, usedTokenIds: [] };
    const payload: { body?: unknown; headers?: string[] } = {};
    // checked here first: a body without a single expression (`{{` in ordinary text) costs no call and is sent as is
    if (shape.kind !== 'opaque' && expressionsIn(payloadOf(shape))) payload.body = payloadOf(shape);
    if (headerAt.length && expressionsIn(headerAt.map((i) => req.headers[i][1]))) payload.headers = headerAt.map((i) => req.headers[i][1]);
    if (payload.body === undefined && payload.headers === undefined) return { ...req, usedTokenIds: [] };
    if (own) onlyOwnExpressions(payload, own);
    const replaced = (await this.rpc.call(OPS.token.tokens.detokenize, { payload, path: 'request' }, ctx)) as typeof payload;
    const headers = req.headers.map((pair) => [...pair] as [string, string]);
    if (payload.headers) headerAt.forEach((at, n) => (headers[at][1] = asText(replaced.headers?.[n])));
    const body = shape.kind === 'opaque' || payload.body === undefined ? req.body : writeBody(shape, replaced.body);
    return { headers, body, contentType: req.contentType, usedTokenIds: findDetokenizationExpressions(payload) };
  }
}

/** Whether a value holds detokenization expressions; a malformed one is the caller's 400, as at POST /detokenize. */
function expressionsIn(value: unknown): boolean {
  try {
    return findDetokenizationExpressions(value).length > 0;
  } catch (err) {
    throw badRequest('The request contains an invalid detokenization expression', {
      request: [err instanceof ExpressionError ? err.message : 'invalid detokenization expression'],
    });
  }
}
