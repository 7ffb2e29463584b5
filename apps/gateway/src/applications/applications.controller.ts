import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OPS, ApplicationPage, ApplicationView, CreateApplicationRequest, ListApplicationsQuery, UpdateApplicationRequest, type Page } from '@coffer/contracts';
import { AuthenticatedOnly, RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

const APPLICATION_ID = { name: 'id', format: 'uuid', description: 'the application id' };

@ApiTags('applications')
@Controller('applications')
export class ApplicationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('application:create')
  @ApiOperation({
    summary: 'Create an application',
    description: 'application:create. The reply carries `key` (and `keys`), shown only here. A permission the type may not hold is a 400.',
  })
  @ApiBody({ type: CreateApplicationRequest })
  @ApiCreatedResponse({ type: ApplicationView })
  create(@Req() req: GatewayRequest, @Body() body: CreateApplicationRequest) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.create, body, callContext(req));
  }

  @Get()
  @RequirePermission('application:read')
  @ApiOperation({ summary: 'List applications', description: 'application:read. Newest first; never keys.' })
  @ApiOkResponse({ type: ApplicationPage })
  list(@Req() req: GatewayRequest, @Query() query: ListApplicationsQuery) {
    return this.rpc.call<Page<ApplicationView>>(OPS.session.applications.list, query, callContext(req));
  }

  /** The calling application (any application key; a session key is refused by session-service). */
  @Get('key')
  @AuthenticatedOnly()
  @ApiOperation({ summary: 'The calling application', description: 'Any application key, no permission; a session key is a 403.' })
  @ApiOkResponse({ type: ApplicationView })
  current(@Req() req: GatewayRequest) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.current, {}, callContext(req));
  }

  @Get(':id')
  @RequirePermission('application:read')
  @ApiOperation({ summary: 'Get an application', description: 'application:read.' })
  @ApiParam(APPLICATION_ID)
  @ApiOkResponse({ type: ApplicationView })
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.get, { id }, callContext(req));
  }

  @Put(':id')
  @RequirePermission('application:update')
  @ApiOperation({ summary: 'Update an application', description: 'application:update. Name and grants; the type cannot change.' })
  @ApiParam(APPLICATION_ID)
  @ApiBody({ type: UpdateApplicationRequest })
  @ApiOkResponse({ type: ApplicationView })
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: UpdateApplicationRequest) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.update, { id, body }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('application:delete')
  @ApiOperation({ summary: 'Delete an application', description: 'application:delete. Its keys stop working at once.' })
  @ApiParam(APPLICATION_ID)
  @ApiNoContentResponse({ description: 'deleted' })
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.session.applications.delete, { id }, callContext(req));
  }

  @Post(':id/regenerate')
  @HttpCode(200)
  @RequirePermission('application:update')
  @ApiOperation({
    summary: 'Regenerate the key of an application',
    description: 'application:update. The old key stops working at once; the reply carries the new `key`.',
  })
  @ApiParam(APPLICATION_ID)
  @ApiOkResponse({ type: ApplicationView })
  regenerate(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.regenerate, { id }, callContext(req));
  }
}
