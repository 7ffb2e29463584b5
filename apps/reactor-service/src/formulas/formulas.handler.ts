import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type IdRequest, type ReactorBodyRequest, type ReactorFormulaRequest, type RpcEnvelope } from '@coffer/contracts';
import { requirePrincipal } from '@coffer/auth';
import { FormulasService } from './formulas.service';
import { IdempotentWrites } from '@coffer/idempotency';

@Controller()
export class FormulasHandler {
  constructor(
    private readonly formulas: FormulasService,
    private readonly idempotency: IdempotentWrites,
  ) {}

  @MessagePattern(SUBJECTS.reactor.formulas.create)
  create(@Payload() env: RpcEnvelope<ReactorFormulaRequest>) {
    const principal = requirePrincipal(env, 'reactor:create');
    return this.idempotency.run(SUBJECTS.reactor.formulas.create, env, () => this.formulas.create(principal, env.body));
  }

  @MessagePattern(SUBJECTS.reactor.formulas.list)
  list(@Payload() env: RpcEnvelope<Record<string, unknown>>) {
    return this.formulas.list(requirePrincipal(env, 'reactor:read'), env.body ?? {});
  }

  @MessagePattern(SUBJECTS.reactor.formulas.get)
  get(@Payload() env: RpcEnvelope<IdRequest>) {
    return this.formulas.get(requirePrincipal(env, 'reactor:read'), env.body?.id);
  }

  @MessagePattern(SUBJECTS.reactor.formulas.update)
  update(@Payload() env: RpcEnvelope<ReactorBodyRequest>) {
    const principal = requirePrincipal(env, 'reactor:update');
    return this.idempotency.run(SUBJECTS.reactor.formulas.update, env, () => this.formulas.update(principal, env.body?.id, env.body?.body));
  }

  @MessagePattern(SUBJECTS.reactor.formulas.delete)
  async delete(@Payload() env: RpcEnvelope<IdRequest>) {
    await this.formulas.delete(requirePrincipal(env, 'reactor:delete'), env.body?.id);
    return { deleted: true };
  }
}
