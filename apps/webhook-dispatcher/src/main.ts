import 'reflect-metadata';
import { EventBus, bootstrapService } from '@coffer/messaging';
import { PrismaService } from '@coffer/db';
import { envString } from '@coffer/observability';
import { AppModule } from './app.module';

void bootstrapService({
  name: 'webhook-dispatcher',
  module: AppModule,
  defaultHealthPort: 9104,
  validateConfig: () => {
    envString('DATABASE_URL');
  },
  readiness: (app) => ({
    database: () => app.get(PrismaService).ping(),
    nats: () => app.get(EventBus).ping(),
  }),
});
