import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OPS, ListReactorFormulasQuery, ReactorFormulaPage, ReactorFormulaRequest, ReactorFormulaView, type Page } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { ApiProblems } from '../docs/api-problems.decorator';

const FORMULA_ID = { name: 'id', format: 'uuid', description: 'the formula id' };

@ApiTags('reactor formulas')
@Controller('reactor-formulas')
export class ReactorFormulasController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('reactor:create')
  @ApiOperation({
    summary: 'Create a private formula',
    description: "reactor:create. Only private formulas are created through the API (official ones are the operator's).",
  })
  @ApiBody({ type: ReactorFormulaRequest })
  @ApiCreatedResponse({ type: ReactorFormulaView })
  create(@Req() req: GatewayRequest, @Body() body: ReactorFormulaRequest) {
    return this.rpc.call<ReactorFormulaView>(OPS.reactor.formulas.create, body, callContext(req));
  }

  @Get()
  @RequirePermission('reactor:read')
  @ApiOperation({ summary: 'List formulas', description: "reactor:read. The operator's official formulas and the tenant's private ones." })
  @ApiOkResponse({ type: ReactorFormulaPage })
  list(@Req() req: GatewayRequest, @Query() query: ListReactorFormulasQuery) {
    return this.rpc.call<Page<ReactorFormulaView>>(OPS.reactor.formulas.list, query, callContext(req));
  }

  @Get(':id')
  @RequirePermission('reactor:read')
  @ApiOperation({ summary: 'Get a formula', description: 'reactor:read.' })
  @ApiParam(FORMULA_ID)
  @ApiOkResponse({ type: ReactorFormulaView })
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ReactorFormulaView>(OPS.reactor.formulas.get, { id }, callContext(req));
  }

  @Put(':id')
  @RequirePermission('reactor:update')
  @ApiOperation({ summary: 'Replace a private formula', description: 'reactor:update. The same fields and rules as create.' })
  @ApiParam(FORMULA_ID)
  @ApiBody({ type: ReactorFormulaRequest })
  @ApiOkResponse({ type: ReactorFormulaView })
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: ReactorFormulaRequest) {
    return this.rpc.call<ReactorFormulaView>(OPS.reactor.formulas.update, { id, body }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('reactor:delete')
  @ApiOperation({ summary: 'Delete a private formula', description: 'reactor:delete.' })
  @ApiParam(FORMULA_ID)
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiProblems({ 409: 'A reactor uses the formula' })
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.reactor.formulas.delete, { id }, callContext(req));
  }
}
