import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OPS, CreateInvitationRequest, InvitationView, ListInvitationsQuery, type Page } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';

/** Invitations by email (docs/members.md): the link signs the invitee in through single sign-on and adds the member. */
@ApiTags('members')
@Controller()
export class InvitationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.session.invitations.create)
  create(@Req() req: GatewayRequest, @Body() body: CreateInvitationRequest) {
    return this.rpc.call<InvitationView>(OPS.session.invitations.create, body, callContext(req));
  }

  @Route(OPS.session.invitations.list)
  list(@Req() req: GatewayRequest, @Query() query: ListInvitationsQuery) {
    return this.rpc.call<Page<InvitationView>>(OPS.session.invitations.list, query, callContext(req));
  }

  @Route(OPS.session.invitations.get)
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<InvitationView>(OPS.session.invitations.get, { id }, callContext(req));
  }

  @Route(OPS.session.invitations.resend)
  resend(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<InvitationView>(OPS.session.invitations.resend, { id }, callContext(req));
  }

  @Route(OPS.session.invitations.delete)
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.session.invitations.delete, { id }, callContext(req));
  }
}
