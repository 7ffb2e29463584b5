import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { SUBJECTS, type ApplicationView, type Page } from '@coffer/contracts';
import { AuthenticatedOnly, RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

@Controller('applications')
export class ApplicationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('application:create')
  create(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call<ApplicationView>(SUBJECTS.session.applications.create, body ?? {}, callContext(req));
  }

  @Get()
  @RequirePermission('application:read')
  list(@Req() req: GatewayRequest, @Query() query: Record<string, unknown>) {
    return this.rpc.call<Page<ApplicationView>>(SUBJECTS.session.applications.list, query, callContext(req));
  }

  /** The calling application (any application key; a session key is refused by session-service). */
  @Get('key')
  @AuthenticatedOnly()
  current(@Req() req: GatewayRequest) {
    return this.rpc.call<ApplicationView>(SUBJECTS.session.applications.current, {}, callContext(req));
  }

  @Get(':id')
  @RequirePermission('application:read')
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ApplicationView>(SUBJECTS.session.applications.get, { id }, callContext(req));
  }

  @Put(':id')
  @RequirePermission('application:update')
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.rpc.call<ApplicationView>(SUBJECTS.session.applications.update, { id, body: body ?? {} }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('application:delete')
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(SUBJECTS.session.applications.delete, { id }, callContext(req));
  }

  @Post(':id/regenerate')
  @HttpCode(200)
  @RequirePermission('application:update')
  regenerate(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ApplicationView>(SUBJECTS.session.applications.regenerate, { id }, callContext(req));
  }
}
