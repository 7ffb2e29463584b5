import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, assertJsonLimits, deadlineOf, type ListTokensRequest, type RpcEnvelope } from '@coffer/contracts';
import { requirePrincipal } from '@coffer/auth';
import { CursorTokensUseCase } from './cursor-tokens.use-case';

/** The v2 token lists (cursor pages). Permissions as v1: token:read to list, token:search to search. */
@Controller()
export class TokensV2Handler {
  constructor(private readonly cursorTokens: CursorTokensUseCase) {}

  @MessagePattern(SUBJECTS.token.tokens.listV2)
  onList(@Payload() env: RpcEnvelope<ListTokensRequest>) {
    return this.cursorTokens.list(requirePrincipal(env, 'token:read'), env.traceId, env.body?.query ?? {}, deadlineOf(env));
  }

  @MessagePattern(SUBJECTS.token.tokens.searchV2)
  onSearch(@Payload() env: RpcEnvelope<unknown>) {
    const principal = requirePrincipal(env, 'token:search');
    assertJsonLimits(env.body);
    return this.cursorTokens.search(principal, env.traceId, env.body, deadlineOf(env));
  }
}
