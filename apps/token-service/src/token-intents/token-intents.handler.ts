import { Controller } from '@nestjs/common';
import { OPS, type IdMessage } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { TokenIntentsUseCase } from './token-intents.use-case';

/** The token intent operations (OPS.token.intents): the dispatcher has checked the caller and the JSON limits. */
@Controller()
export class TokenIntentsHandler {
  constructor(private readonly intents: TokenIntentsUseCase) {}

  @Operation(OPS.token.intents.create)
  onCreate(cmd: Command) {
    return this.intents.create(cmd.body);
  }

  @Operation(OPS.token.intents.get)
  onGet(cmd: Command<IdMessage | undefined>) {
    return this.intents.get(String(cmd.body?.id ?? ''));
  }

  @Operation(OPS.token.intents.delete)
  async onDelete(cmd: Command<IdMessage | undefined>) {
    await this.intents.delete(String(cmd.body?.id ?? ''));
    return { deleted: true };
  }
}
