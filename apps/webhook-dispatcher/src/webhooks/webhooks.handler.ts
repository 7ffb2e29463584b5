import { Controller } from '@nestjs/common';
import { OPS, type WebhookDeliveriesMessage, type WebhookDeliveryMessage } from '@coffer/contracts';
import { Operation, ResourceHandler, type Command } from '@coffer/operations';
import { WebhooksService } from './webhooks.service';

@Controller()
export class WebhooksHandler extends ResourceHandler(WebhooksService, OPS.webhook.webhooks) {
  @Operation(OPS.webhook.webhooks.deliveries)
  deliveries(cmd: Command<WebhookDeliveriesMessage>) {
    return this.resource.deliveriesOf(cmd.body.webhookId, cmd.body.query);
  }

  @Operation(OPS.webhook.webhooks.resend)
  resend(cmd: Command<WebhookDeliveryMessage>) {
    return this.resource.resend(cmd.body.webhookId, cmd.body.deliveryId);
  }
}
