import 'reflect-metadata';
import { EventBus, bootstrapService } from '@coffer/messaging';
import { PrismaService } from '@coffer/db';
import { envString } from '@coffer/observability';
import { RetrySchedule } from './deliveries/retry-schedule';
import { AppModule } from './app.module';

void bootstrapService({
  name: 'webhook-dispatcher',
  module: AppModule,
  defaultHealthPort: 9104,
  validateConfig: () => {
    envString('DATABASE_URL');
    new RetrySchedule();
  },
  readiness: (app) => ({
    database: () => app.get(PrismaService).ping(),
    nats: () => app.get(EventBus).ping(),
  }),
});
