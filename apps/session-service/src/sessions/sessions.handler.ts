import { Controller } from '@nestjs/common';
import { OPS } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { SessionsService } from './sessions.service';

@Controller()
export class SessionsHandler {
  constructor(private readonly sessions: SessionsService) {}

  @Operation(OPS.session.sessions.create)
  create() {
    return this.sessions.create();
  }

  @Operation(OPS.session.sessions.authorize)
  async authorize(cmd: Command) {
    await this.sessions.authorize(cmd.body);
    return {};
  }
}
