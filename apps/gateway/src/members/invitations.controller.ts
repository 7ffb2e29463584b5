import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OPS, CreateInvitationRequest, InvitationPage, InvitationView, ListInvitationsQuery, type Page } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { ApiProblems } from '../docs/api-problems.decorator';

const INVITATION_ID = { name: 'id', format: 'uuid', description: 'the invitation id' };

/** Invitations by email (docs/members.md): the link signs the invitee in through single sign-on and adds the member. */
@ApiTags('members')
@Controller('tenants/self/invitations')
export class InvitationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('tenant:invitation:create')
  @ApiOperation({
    summary: 'Invite a person',
    description:
      'tenant:invitation:create. Emails a single-use link that works for 72 hours; `role` ADMIN (default), DEVELOPER or READ_ONLY. ' +
      'A member or a pending invitation with that email is a 409.',
  })
  @ApiBody({ type: CreateInvitationRequest })
  @ApiCreatedResponse({ type: InvitationView })
  @ApiProblems({ 409: 'A member has this email, or an invitation for it is pending' })
  create(@Req() req: GatewayRequest, @Body() body: CreateInvitationRequest) {
    return this.rpc.call<InvitationView>(OPS.session.invitations.create, body, callContext(req));
  }

  @Get()
  @RequirePermission('tenant:invitation:read')
  @ApiOperation({ summary: 'List invitations', description: 'tenant:invitation:read. `status` PENDING or EXPIRED filters.' })
  @ApiOkResponse({ type: InvitationPage })
  list(@Req() req: GatewayRequest, @Query() query: ListInvitationsQuery) {
    return this.rpc.call<Page<InvitationView>>(OPS.session.invitations.list, query, callContext(req));
  }

  @Get(':id')
  @RequirePermission('tenant:invitation:read')
  @ApiOperation({ summary: 'Get an invitation', description: 'tenant:invitation:read. Never its link.' })
  @ApiParam(INVITATION_ID)
  @ApiOkResponse({ type: InvitationView })
  @ApiProblems({ 404: 'No such invitation in the tenant' })
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<InvitationView>(OPS.session.invitations.get, { id }, callContext(req));
  }

  @Post(':id/resend')
  @HttpCode(200)
  @RequirePermission('tenant:invitation:update')
  @ApiOperation({
    summary: 'Resend an invitation',
    description: 'tenant:invitation:update. A new link, valid 72 hours from now; the previous link stops working.',
  })
  @ApiParam(INVITATION_ID)
  @ApiOkResponse({ type: InvitationView })
  @ApiProblems({ 404: 'No such invitation in the tenant' })
  resend(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<InvitationView>(OPS.session.invitations.resend, { id }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('tenant:invitation:delete')
  @ApiOperation({ summary: 'Revoke an invitation', description: 'tenant:invitation:delete. Its link stops working at once.' })
  @ApiParam(INVITATION_ID)
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiProblems({ 404: 'No such invitation in the tenant' })
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.session.invitations.delete, { id }, callContext(req));
  }
}
