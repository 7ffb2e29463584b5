import { Controller } from '@nestjs/common';
import { OPS, type IdMessage, type InvitationLookupMessage } from '@coffer/contracts';
import { Operation, ResourceHandler, type Command } from '@coffer/operations';
import { InvitationsService } from './invitations.service';

@Controller()
export class InvitationsHandler extends ResourceHandler(InvitationsService, OPS.session.invitations) {
  @Operation(OPS.session.invitations.resend)
  resend(cmd: Command<IdMessage>) {
    return this.resource.resend(String(cmd.body?.id ?? ''));
  }

  /** No principal (access none): the gateway asks before the person signs in. */
  @Operation(OPS.session.invitations.preview)
  preview(cmd: Command<InvitationLookupMessage>) {
    return this.resource.preview(cmd.body);
  }
}
