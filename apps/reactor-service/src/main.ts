import 'reflect-metadata';
import { EventBus, bootstrapService } from '@coffer/messaging';
import { PrismaService } from '@coffer/db';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { envString } from '@coffer/observability';
import { AppModule } from './app.module';

void bootstrapService({
  name: 'reactor-service',
  module: AppModule,
  defaultHealthPort: 9103,
  validateConfig: () => {
    envString('DATABASE_URL');
    KeyEncryptionKeys.fromEnv();
  },
  readiness: (app) => ({
    database: () => app.get(PrismaService).ping(),
    nats: () => app.get(EventBus).ping(),
  }),
});
