import { Controller } from '@nestjs/common';
import { OPS, type IdBodyMessage, type IdMessage, type TransferOwnerRequest } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { MembersService } from './members.service';

@Controller()
export class MembersHandler {
  constructor(private readonly members: MembersService) {}

  @Operation(OPS.session.members.list)
  list(cmd: Command<Record<string, unknown> | undefined>) {
    return this.members.list(cmd.principal, cmd.body ?? {});
  }

  @Operation(OPS.session.members.get)
  get(cmd: Command<IdMessage>) {
    return this.members.get(cmd.principal, String(cmd.body?.id ?? ''));
  }

  @Operation(OPS.session.members.update)
  update(cmd: Command<IdBodyMessage>) {
    return this.members.update(cmd.principal, String(cmd.body?.id ?? ''), cmd.body?.body, cmd.traceId);
  }

  @Operation(OPS.session.members.delete)
  async delete(cmd: Command<IdMessage>) {
    await this.members.delete(cmd.principal, String(cmd.body?.id ?? ''), cmd.traceId);
    return { deleted: true };
  }

  @Operation(OPS.session.members.owner)
  owner(cmd: Command) {
    return this.members.owner(cmd.principal);
  }

  @Operation(OPS.session.members.transferOwner)
  transferOwner(cmd: Command<TransferOwnerRequest>) {
    return this.members.transferOwner(cmd.principal, cmd.body, cmd.traceId);
  }
}
