import { Controller } from '@nestjs/common';
import { OPS, type ListTokensRequest } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { CursorTokensUseCase } from './cursor-tokens.use-case';

/** The v2 token lists (cursor pages). Permissions as v1: token:read to list, token:search to search. */
@Controller()
export class TokensV2Handler {
  constructor(private readonly cursorTokens: CursorTokensUseCase) {}

  @Operation(OPS.token.tokens.listV2)
  onList(cmd: Command<ListTokensRequest | undefined>) {
    return this.cursorTokens.list(cmd.body?.query ?? {}, cmd.deadline);
  }

  @Operation(OPS.token.tokens.searchV2)
  onSearch(cmd: Command) {
    return this.cursorTokens.search(cmd.body, cmd.deadline);
  }
}
