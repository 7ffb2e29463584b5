import { Controller } from '@nestjs/common';
import { OPS, type ConsoleAuthenticateMessage, type ConsoleSignInMessage, type ConsoleSignOutMessage } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { ConsoleSignInService } from './console-sign-in.service';

/** The console's sign-in, session check and sign-out, for the gateway (no principal: the credential is in the body). */
@Controller()
export class ConsoleHandler {
  constructor(private readonly console: ConsoleSignInService) {}

  @Operation(OPS.session.console.signIn)
  signIn(cmd: Command<ConsoleSignInMessage>) {
    return this.console.signIn(cmd.body);
  }

  @Operation(OPS.session.console.authenticate)
  authenticate(cmd: Command<ConsoleAuthenticateMessage>) {
    return this.console.authenticate(cmd.body.idHash);
  }

  @Operation(OPS.session.console.signOut)
  signOut(cmd: Command<ConsoleSignOutMessage>) {
    return this.console.signOut(cmd.body.idHash, cmd.body.everywhere === true);
  }
}
