import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type RpcEnvelope } from '@coffer/contracts';
import { TenantsService } from './tenants.service';
import { WebhookSecretsService } from './webhook-secrets.service';
import { requirePrincipal } from '../principal';

@Controller()
export class TenantsHandler {
  constructor(
    private readonly tenants: TenantsService,
    private readonly webhookSecrets: WebhookSecretsService,
  ) {}

  @MessagePattern(SUBJECTS.session.tenants.webhookSecret)
  webhookSecret(@Payload() env: RpcEnvelope<{ signing?: boolean }>) {
    if (env.body?.signing) return this.webhookSecrets.signing(requirePrincipal(env).tenantId);
    return this.webhookSecrets.current(requirePrincipal(env, 'tenant:read').tenantId);
  }

  @MessagePattern(SUBJECTS.session.tenants.rotateWebhookSecret)
  rotateWebhookSecret(@Payload() env: RpcEnvelope<unknown>) {
    return this.webhookSecrets.rotate(requirePrincipal(env, 'tenant:update').tenantId);
  }

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
