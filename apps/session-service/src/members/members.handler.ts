import { Controller } from '@nestjs/common';
import { OPS, type TransferOwnerRequest } from '@coffer/contracts';
import { Operation, ResourceHandler, type Command } from '@coffer/operations';
import { MembersService } from './members.service';

@Controller()
export class MembersHandler extends ResourceHandler(MembersService, OPS.session.members) {
  @Operation(OPS.session.members.owner)
  owner() {
    return this.resource.owner();
  }

  @Operation(OPS.session.members.transferOwner)
  transferOwner(cmd: Command<TransferOwnerRequest>) {
    return this.resource.transferOwner(cmd.body);
  }
}
