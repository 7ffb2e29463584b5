import 'reflect-metadata';
import { EventBus, bootstrapService } from '@coffer/messaging';
import { PrismaService } from '@coffer/db';
import { envString } from '@coffer/observability';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { AppModule } from './app.module';

void bootstrapService({
  name: 'session-service',
  module: AppModule,
  defaultHealthPort: 9102,
  validateConfig: () => {
    envString('DATABASE_URL');
    KeyEncryptionKeys.fromEnv();
  },
  readiness: (app) => ({
    database: () => app.get(PrismaService).ping(),
    nats: () => app.get(EventBus).ping(),
  }),
});
