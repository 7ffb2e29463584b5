import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type RpcEnvelope } from '@coffer/contracts';
import { TenantsService } from './tenants.service';
import { requirePrincipal } from '../principal';

@Controller()
export class TenantsHandler {
  constructor(private readonly tenants: TenantsService) {}

  /** Also used service-to-service (token-service reads deduplicate_tokens): any principal of the tenant. */
  @MessagePattern(SUBJECTS.session.tenants.get)
  get(@Payload() env: RpcEnvelope<{ internal?: boolean }>) {
    const principal = requirePrincipal(env, env.body?.internal ? undefined : 'tenant:read');
    return this.tenants.get(principal.tenantId);
  }

  @MessagePattern(SUBJECTS.session.tenants.update)
  update(@Payload() env: RpcEnvelope<unknown>) {
    return this.tenants.update(requirePrincipal(env, 'tenant:update'), env.body);
  }
}
