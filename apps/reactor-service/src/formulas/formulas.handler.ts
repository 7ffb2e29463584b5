import { Controller } from '@nestjs/common';
import { OPS, type IdRequest, type ReactorBodyRequest, type ReactorFormulaRequest } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { FormulasService } from './formulas.service';

@Controller()
export class FormulasHandler {
  constructor(private readonly formulas: FormulasService) {}

  @Operation(OPS.reactor.formulas.create)
  create(cmd: Command<ReactorFormulaRequest>) {
    return this.formulas.create(cmd.body);
  }

  @Operation(OPS.reactor.formulas.list)
  list(cmd: Command<Record<string, unknown> | undefined>) {
    return this.formulas.list(cmd.body ?? {});
  }

  @Operation(OPS.reactor.formulas.get)
  get(cmd: Command<IdRequest | undefined>) {
    return this.formulas.get(cmd.body?.id as string);
  }

  @Operation(OPS.reactor.formulas.update)
  update(cmd: Command<ReactorBodyRequest | undefined>) {
    return this.formulas.update(cmd.body?.id as string, cmd.body?.body);
  }

  @Operation(OPS.reactor.formulas.delete)
  async delete(cmd: Command<IdRequest | undefined>) {
    await this.formulas.delete(cmd.body?.id as string);
    return { deleted: true };
  }
}
