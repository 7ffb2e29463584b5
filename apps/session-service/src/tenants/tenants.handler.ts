import { Controller } from '@nestjs/common';
import { OPS, type TenantGetMessage, type UpdateTenantRequest, type WebhookSecretMessage } from '@coffer/contracts';
import { AuditTrail, Operation, caller, type Command } from '@coffer/operations';
import { TenantsService } from './tenants.service';
import { WebhookSecretsService } from './webhook-secrets.service';

@Controller()
export class TenantsHandler {
  constructor(
    private readonly tenants: TenantsService,
    private readonly webhookSecrets: WebhookSecretsService,
    private readonly audit: AuditTrail,
  ) {}

  @Operation(OPS.session.tenants.webhookSecret)
  async webhookSecret(cmd: Command<WebhookSecretMessage>) {
    const tenantId = caller().tenantId;
    if (cmd.body.signing) return this.webhookSecrets.signing(tenantId);
    const secret = await this.webhookSecrets.current(tenantId);
    // a management key read the signing secret: who, when (never the secret)
    await this.audit.record({ operation: 'read', entityType: 'webhook_secret', entityId: tenantId });
    return secret;
  }

  @Operation(OPS.session.tenants.rotateWebhookSecret)
  rotateWebhookSecret() {
    return this.webhookSecrets.rotate(caller().tenantId);
  }

  /** Also used service-to-service (token-service reads deduplicate_tokens): any principal of the tenant. */
  @Operation(OPS.session.tenants.get)
  get(cmd: Command<TenantGetMessage | undefined>) {
    return this.tenants.get(caller().tenantId, { owner: !cmd.body?.internal });
  }

  @Operation(OPS.session.tenants.update)
  update(cmd: Command<UpdateTenantRequest>) {
    return this.tenants.update(cmd.body);
  }
}
