import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OPS, ListReactorFormulasQuery, ReactorFormulaRequest, ReactorFormulaView, type Page } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';

@ApiTags('reactor formulas')
@Controller()
export class ReactorFormulasController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.reactor.formulas.create)
  create(@Req() req: GatewayRequest, @Body() body: ReactorFormulaRequest) {
    return this.rpc.call<ReactorFormulaView>(OPS.reactor.formulas.create, body, callContext(req));
  }

  @Route(OPS.reactor.formulas.list)
  list(@Req() req: GatewayRequest, @Query() query: ListReactorFormulasQuery) {
    return this.rpc.call<Page<ReactorFormulaView>>(OPS.reactor.formulas.list, query, callContext(req));
  }

  @Route(OPS.reactor.formulas.get)
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ReactorFormulaView>(OPS.reactor.formulas.get, { id }, callContext(req));
  }

  @Route(OPS.reactor.formulas.update)
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: ReactorFormulaRequest) {
    return this.rpc.call<ReactorFormulaView>(OPS.reactor.formulas.update, { id, body }, callContext(req));
  }

  @Route(OPS.reactor.formulas.delete)
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.reactor.formulas.delete, { id }, callContext(req));
  }
}
