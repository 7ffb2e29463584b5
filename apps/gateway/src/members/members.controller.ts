import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OPS, ListMembersQuery, MemberView, TransferOwnerRequest, UpdateMemberRequest, type Page } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';

/** The people of the tenant (docs/members.md): their roles, and who owns the tenant. */
@ApiTags('members')
@Controller()
export class MembersController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.session.members.list)
  list(@Req() req: GatewayRequest, @Query() query: ListMembersQuery) {
    return this.rpc.call<Page<MemberView>>(OPS.session.members.list, query, callContext(req));
  }

  @Route(OPS.session.members.get)
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<MemberView>(OPS.session.members.get, { id }, callContext(req));
  }

  @Route(OPS.session.members.update)
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: UpdateMemberRequest) {
    return this.rpc.call<MemberView>(OPS.session.members.update, { id, body }, callContext(req));
  }

  @Route(OPS.session.members.delete)
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.session.members.delete, { id }, callContext(req));
  }

  @Route(OPS.session.members.owner)
  owner(@Req() req: GatewayRequest) {
    return this.rpc.call<MemberView>(OPS.session.members.owner, {}, callContext(req));
  }

  @Route(OPS.session.members.transferOwner)
  transferOwner(@Req() req: GatewayRequest, @Body() body: TransferOwnerRequest) {
    return this.rpc.call<MemberView>(OPS.session.members.transferOwner, body, callContext(req));
  }
}
