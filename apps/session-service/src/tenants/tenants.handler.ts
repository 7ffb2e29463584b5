import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type RpcEnvelope, type UpdateTenantRequest } from '@coffer/contracts';
import { TenantsService } from './tenants.service';
import { WebhookSecretsService } from './webhook-secrets.service';
import { requirePrincipal } from '@coffer/auth';
import { IdempotentWrites } from '@coffer/idempotency';

@Controller()
export class TenantsHandler {
  constructor(
    private readonly tenants: TenantsService,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly idempotency: IdempotentWrites,
  ) {}

  @MessagePattern(SUBJECTS.session.tenants.webhookSecret)
  webhookSecret(@Payload() env: RpcEnvelope<{ signing?: boolean }>) {
    if (env.body?.signing) return this.webhookSecrets.signing(requirePrincipal(env).tenantId);
    return this.webhookSecrets.current(requirePrincipal(env, 'tenant:read').tenantId);
  }

  @MessagePattern(SUBJECTS.session.tenants.rotateWebhookSecret)
  rotateWebhookSecret(@Payload() env: RpcEnvelope<unknown>) {
    const principal = requirePrincipal(env, 'tenant:update');
    return this.idempotency.run(SUBJECTS.session.tenants.rotateWebhookSecret, env, () => this.webhookSecrets.rotate(principal.tenantId));
  }

  /** Also used service-to-service (token-service reads deduplicate_tokens): any principal of the tenant. */
  @MessagePattern(SUBJECTS.session.tenants.get)
  get(@Payload() env: RpcEnvelope<{ internal?: boolean }>) {
    const principal = requirePrincipal(env, env.body?.internal ? undefined : 'tenant:read');
    return this.tenants.get(principal.tenantId);
  }

  @MessagePattern(SUBJECTS.session.tenants.update)
  update(@Payload() env: RpcEnvelope<UpdateTenantRequest>) {
    const principal = requirePrincipal(env, 'tenant:update');
    return this.idempotency.run(SUBJECTS.session.tenants.update, env, () => this.tenants.update(principal, env.body));
  }
}
