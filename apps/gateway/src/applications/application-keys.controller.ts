import { Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OPS, ApplicationKeyView, MAX_KEYS_PER_APPLICATION } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { ApiProblems } from '../docs/api-problems.decorator';

const APPLICATION_ID = { name: 'id', format: 'uuid', description: 'the application id' };
const KEY_ID = { name: 'keyId', format: 'uuid', description: 'the key id' };

/** Several API keys per application: the secret is in the create reply only; delete revokes at once. */
@ApiTags('applications')
@Controller('applications')
export class ApplicationKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':id/keys')
  @HttpCode(201)
  @RequirePermission('application:update')
  @ApiOperation({
    summary: 'Create a key for an application',
    description: `application:update. The secret \`key\` is in this reply only; at most ${MAX_KEYS_PER_APPLICATION} keys per application.`,
  })
  @ApiParam(APPLICATION_ID)
  @ApiCreatedResponse({ type: ApplicationKeyView })
  @ApiProblems({ 422: `The application already holds ${MAX_KEYS_PER_APPLICATION} keys` })
  create(@Req() req: GatewayRequest, @Param('id') applicationId: string) {
    return this.rpc.call<ApplicationKeyView>(OPS.session.applications.keys.create, { applicationId }, callContext(req));
  }

  @Get(':id/keys')
  @RequirePermission('application:read')
  @ApiOperation({ summary: 'List the keys of an application', description: 'application:read. Never the secrets.' })
  @ApiParam(APPLICATION_ID)
  @ApiOkResponse({ type: [ApplicationKeyView] })
  list(@Req() req: GatewayRequest, @Param('id') applicationId: string) {
    return this.rpc.call<ApplicationKeyView[]>(OPS.session.applications.keys.list, { applicationId }, callContext(req));
  }

  @Get(':id/keys/:keyId')
  @RequirePermission('application:read')
  @ApiOperation({ summary: 'Get a key of an application', description: 'application:read. Never the secret.' })
  @ApiParam(APPLICATION_ID)
  @ApiParam(KEY_ID)
  @ApiOkResponse({ type: ApplicationKeyView })
  get(@Req() req: GatewayRequest, @Param('id') applicationId: string, @Param('keyId') keyId: string) {
    return this.rpc.call<ApplicationKeyView>(OPS.session.applications.keys.get, { applicationId, keyId }, callContext(req));
  }

  @Delete(':id/keys/:keyId')
  @HttpCode(204)
  @RequirePermission('application:update')
  @ApiOperation({ summary: 'Revoke a key of an application', description: 'application:update. The key stops working at once.' })
  @ApiParam(APPLICATION_ID)
  @ApiParam(KEY_ID)
  @ApiNoContentResponse({ description: 'revoked' })
  async delete(@Req() req: GatewayRequest, @Param('id') applicationId: string, @Param('keyId') keyId: string): Promise<void> {
    await this.rpc.call(OPS.session.applications.keys.delete, { applicationId, keyId }, callContext(req));
  }
}
