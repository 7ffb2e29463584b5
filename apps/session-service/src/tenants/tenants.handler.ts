import { Controller } from '@nestjs/common';
import { OPS, type UpdateTenantRequest, type WebhookSecretMessage } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/messaging';
import { TenantsService } from './tenants.service';
import { WebhookSecretsService } from './webhook-secrets.service';

@Controller()
export class TenantsHandler {
  constructor(
    private readonly tenants: TenantsService,
    private readonly webhookSecrets: WebhookSecretsService,
  ) {}

  @Operation(OPS.session.tenants.webhookSecret)
  webhookSecret(cmd: Command<WebhookSecretMessage>) {
    const tenantId = cmd.principal.tenantId;
    return cmd.body.signing ? this.webhookSecrets.signing(tenantId) : this.webhookSecrets.current(tenantId);
  }

  @Operation(OPS.session.tenants.rotateWebhookSecret)
  rotateWebhookSecret(cmd: Command) {
    return this.webhookSecrets.rotate(cmd.principal.tenantId);
  }

  /** Also used service-to-service (token-service reads deduplicate_tokens): any principal of the tenant. */
  @Operation(OPS.session.tenants.get)
  get(cmd: Command) {
    return this.tenants.get(cmd.principal.tenantId);
  }

  @Operation(OPS.session.tenants.update)
  update(cmd: Command<UpdateTenantRequest>) {
    return this.tenants.update(cmd.principal, cmd.body);
  }
}
