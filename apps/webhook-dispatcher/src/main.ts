import './tracing';
import 'reflect-metadata';
// its own entry point: the service bootstrap (with its database readiness check) stays out of the gateway's bundle
import { rowsServedBy } from '@coffer/contracts';
import { bootstrapService } from '@coffer/service-bootstrap';
import { AppModule } from './app.module';
import { OutboxRelay } from './events/outbox-relay';
import { webhookDispatcherConfig } from './config';

void bootstrapService({
  name: 'webhook-dispatcher',
  operations: rowsServedBy('webhook'),
  module: AppModule,
  // every variable is read and checked first, once: a bad value stops the process (exit 78) naming the variable
  // (KEY_ENCRYPTION_KEYS too: delivery bodies are stored sealed under the tenant's data key)
  config: webhookDispatcherConfig,
  usesDatabase: true,
  // deliveries under way are attempted and recorded while the database pools are still open
  drain: (app) => app.get(OutboxRelay).drain(),
});
