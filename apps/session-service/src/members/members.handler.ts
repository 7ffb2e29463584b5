import { Controller } from '@nestjs/common';
import { OPS, type IdBodyMessage, type IdMessage, type TransferOwnerRequest } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { MembersService } from './members.service';

@Controller()
export class MembersHandler {
  constructor(private readonly members: MembersService) {}

  @Operation(OPS.session.members.list)
  list(cmd: Command<Record<string, unknown> | undefined>) {
    return this.members.list(cmd.body ?? {});
  }

  @Operation(OPS.session.members.get)
  get(cmd: Command<IdMessage>) {
    return this.members.get(String(cmd.body?.id ?? ''));
  }

  @Operation(OPS.session.members.update)
  update(cmd: Command<IdBodyMessage>) {
    return this.members.update(String(cmd.body?.id ?? ''), cmd.body?.body);
  }

  @Operation(OPS.session.members.delete)
  async delete(cmd: Command<IdMessage>) {
    await this.members.delete(String(cmd.body?.id ?? ''));
    return { deleted: true };
  }

  @Operation(OPS.session.members.owner)
  owner() {
    return this.members.owner();
  }

  @Operation(OPS.session.members.transferOwner)
  transferOwner(cmd: Command<TransferOwnerRequest>) {
    return this.members.transferOwner(cmd.body);
  }
}
