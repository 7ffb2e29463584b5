import { Controller } from '@nestjs/common';
import { OPS, type CreateInvitationRequest, type IdMessage, type InvitationLookupMessage } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { InvitationsService } from './invitations.service';

@Controller()
export class InvitationsHandler {
  constructor(private readonly invitations: InvitationsService) {}

  @Operation(OPS.session.invitations.create)
  create(cmd: Command<CreateInvitationRequest>) {
    return this.invitations.create(cmd.body);
  }

  @Operation(OPS.session.invitations.list)
  list(cmd: Command<Record<string, unknown> | undefined>) {
    return this.invitations.list(cmd.body ?? {});
  }

  @Operation(OPS.session.invitations.get)
  get(cmd: Command<IdMessage>) {
    return this.invitations.get(String(cmd.body?.id ?? ''));
  }

  @Operation(OPS.session.invitations.resend)
  resend(cmd: Command<IdMessage>) {
    return this.invitations.resend(String(cmd.body?.id ?? ''));
  }

  @Operation(OPS.session.invitations.delete)
  async delete(cmd: Command<IdMessage>) {
    await this.invitations.delete(String(cmd.body?.id ?? ''));
    return { deleted: true };
  }

  /** No principal (access none): the gateway asks before the person signs in. */
  @Operation(OPS.session.invitations.preview)
  preview(cmd: Command<InvitationLookupMessage>) {
    return this.invitations.preview(cmd.body);
  }
}
