import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { SUBJECTS, type Page, type ReactorFormulaView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

@Controller('reactor-formulas')
export class ReactorFormulasController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('reactor:create')
  create(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call<ReactorFormulaView>(SUBJECTS.reactor.formulas.create, body ?? {}, callContext(req));
  }

  @Get()
  @RequirePermission('reactor:read')
  list(@Req() req: GatewayRequest, @Query() query: Record<string, unknown>) {
    return this.rpc.call<Page<ReactorFormulaView>>(SUBJECTS.reactor.formulas.list, query, callContext(req));
  }

  @Get(':id')
  @RequirePermission('reactor:read')
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ReactorFormulaView>(SUBJECTS.reactor.formulas.get, { id }, callContext(req));
  }

  @Put(':id')
  @RequirePermission('reactor:update')
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.rpc.call<ReactorFormulaView>(SUBJECTS.reactor.formulas.update, { id, body: body ?? {} }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('reactor:delete')
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(SUBJECTS.reactor.formulas.delete, { id }, callContext(req));
  }
}
