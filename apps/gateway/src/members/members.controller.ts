import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Req } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OPS, ListMembersQuery, MemberPage, MemberView, TransferOwnerRequest, UpdateMemberRequest, type Page } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { ApiProblems } from '../docs/api-problems.decorator';

const MEMBER_ID = { name: 'id', format: 'uuid', description: 'the member id' };

/** The people of the tenant (docs/members.md): their roles, and who owns the tenant. */
@ApiTags('members')
@Controller('tenants/self')
export class MembersController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('members')
  @RequirePermission('tenant:member:read')
  @ApiOperation({ summary: 'List tenant members', description: 'tenant:member:read. Oldest first; `user_id` filters (repeatable).' })
  @ApiOkResponse({ type: MemberPage })
  list(@Req() req: GatewayRequest, @Query() query: ListMembersQuery) {
    return this.rpc.call<Page<MemberView>>(OPS.session.members.list, query, callContext(req));
  }

  @Get('members/:id')
  @RequirePermission('tenant:member:read')
  @ApiOperation({ summary: 'Get a tenant member', description: 'tenant:member:read.' })
  @ApiParam(MEMBER_ID)
  @ApiOkResponse({ type: MemberView })
  @ApiProblems({ 404: 'No such member in the tenant' })
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<MemberView>(OPS.session.members.get, { id }, callContext(req));
  }

  @Put('members/:id')
  @RequirePermission('tenant:member:update')
  @ApiOperation({
    summary: "Change a member's role",
    description: 'tenant:member:update. ADMIN, DEVELOPER or READ_ONLY; the owner is changed by PUT /tenants/self/owner only (409).',
  })
  @ApiParam(MEMBER_ID)
  @ApiBody({ type: UpdateMemberRequest })
  @ApiOkResponse({ type: MemberView })
  @ApiProblems({ 404: 'No such member in the tenant', 409: 'The member is the owner: transfer ownership first' })
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: UpdateMemberRequest) {
    return this.rpc.call<MemberView>(OPS.session.members.update, { id, body }, callContext(req));
  }

  @Delete('members/:id')
  @HttpCode(204)
  @RequirePermission('tenant:member:delete')
  @ApiOperation({
    summary: 'Remove a tenant member',
    description: "tenant:member:delete. The member's console sessions end at once; the owner cannot be removed (409).",
  })
  @ApiParam(MEMBER_ID)
  @ApiNoContentResponse({ description: 'removed' })
  @ApiProblems({ 404: 'No such member in the tenant', 409: 'The member is the owner: transfer ownership first' })
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.session.members.delete, { id }, callContext(req));
  }

  @Get('owner')
  @RequirePermission('tenant:member:read')
  @ApiOperation({ summary: 'The owner of the tenant', description: 'tenant:member:read. 404 until a first member has joined.' })
  @ApiOkResponse({ type: MemberView })
  @ApiProblems({ 404: 'Nobody has joined the tenant yet' })
  owner(@Req() req: GatewayRequest) {
    return this.rpc.call<MemberView>(OPS.session.members.owner, {}, callContext(req));
  }

  @Put('owner')
  @RequirePermission('tenant:owner:transfer')
  @ApiOperation({
    summary: 'Transfer ownership',
    description: 'tenant:owner:transfer; a person must be the OWNER. The member named becomes the owner and the former owner an ADMIN, in one transaction.',
  })
  @ApiBody({ type: TransferOwnerRequest })
  @ApiOkResponse({ type: MemberView })
  @ApiProblems({ 403: 'A person who is not the owner', 404: 'No such member in the tenant' })
  transferOwner(@Req() req: GatewayRequest, @Body() body: TransferOwnerRequest) {
    return this.rpc.call<MemberView>(OPS.session.members.transferOwner, body, callContext(req));
  }
}
