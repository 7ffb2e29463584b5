import { Module } from '@nestjs/common';
import { DbModule } from '@coffer/db';
import { IdempotentWrites } from '@coffer/idempotency';
import { KeyringModule } from '@coffer/crypto/keyring';
import { BusModule } from '@coffer/bus';
import { AuditTrail, OperationDispatcher, RecordedWrites } from '@coffer/operations';
import { PingHandler } from './health/ping.handler';
import { DeliveryRepository } from './deliveries/delivery.repository';
import { DispatcherService } from './deliveries/dispatcher.service';
import { LagMetrics } from './deliveries/lag-metrics';
import { WebhooksHandler } from './webhooks/webhooks.handler';
import { WebhookRepository } from './webhooks/webhook.repository';
import { EndpointSecrets } from './webhooks/endpoint-secrets';
import { WebhooksService } from './webhooks/webhooks.service';
import { EventStream } from './events/event-stream';
import { OutboxRelay } from './events/outbox-relay';
import { RelayLeadership } from './events/relay-leadership';
import { mailerProvider } from './notify/mailer';
import { FailingWebhooks } from './notify/failing-webhooks';
import { DeliveryPruner } from './retention/delivery-pruner';

@Module({
  imports: [DbModule, KeyringModule, BusModule],
  controllers: [PingHandler, WebhooksHandler],
  providers: [
    OperationDispatcher,
    AuditTrail,
    RecordedWrites,
    // POST and PUT /webhooks under SVC-IDEMPOTENCY-KEY: the key is recorded in the write's transaction
    IdempotentWrites,
    DeliveryRepository,
    DispatcherService,
    WebhookRepository,
    EndpointSecrets,
    WebhooksService,
    EventStream,
    RelayLeadership,
    OutboxRelay,
    mailerProvider,
    FailingWebhooks,
    DeliveryPruner,
    // coffer_event_outbox_oldest_age_seconds, coffer_webhook_oldest_due_age_seconds
    LagMetrics,
  ],
})
export class AppModule {}
