import { Controller } from '@nestjs/common';
import {
  OPS,
  type CreateWebhookRequest,
  type IdBodyMessage,
  type IdMessage,
  type ListQueryMessage,
  type WebhookDeliveriesMessage,
  type WebhookDeliveryMessage,
} from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { WebhooksService } from './webhooks.service';

@Controller()
export class WebhooksHandler {
  constructor(private readonly webhooks: WebhooksService) {}

  @Operation(OPS.webhook.webhooks.create)
  create(cmd: Command<CreateWebhookRequest>) {
    return this.webhooks.create(cmd.body);
  }

  @Operation(OPS.webhook.webhooks.list)
  list(cmd: Command<ListQueryMessage | undefined>) {
    return this.webhooks.list(cmd.body?.query ?? {});
  }

  @Operation(OPS.webhook.webhooks.get)
  get(cmd: Command<IdMessage>) {
    return this.webhooks.get(cmd.body.id);
  }

  @Operation(OPS.webhook.webhooks.update)
  update(cmd: Command<IdBodyMessage>) {
    return this.webhooks.update(cmd.body.id, cmd.body.body);
  }

  @Operation(OPS.webhook.webhooks.delete)
  async delete(cmd: Command<IdMessage>) {
    await this.webhooks.delete(cmd.body.id);
    return { deleted: true };
  }

  @Operation(OPS.webhook.webhooks.deliveries)
  deliveries(cmd: Command<WebhookDeliveriesMessage>) {
    return this.webhooks.deliveriesOf(cmd.body.webhookId, cmd.body.query);
  }

  @Operation(OPS.webhook.webhooks.resend)
  resend(cmd: Command<WebhookDeliveryMessage>) {
    return this.webhooks.resend(cmd.body.webhookId, cmd.body.deliveryId);
  }
}
