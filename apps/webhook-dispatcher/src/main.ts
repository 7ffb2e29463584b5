import 'reflect-metadata';
import { bootstrapService } from '@coffer/messaging';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { RetrySchedule } from './deliveries/retry-schedule';
import { AppModule } from './app.module';

void bootstrapService({
  name: 'webhook-dispatcher',
  module: AppModule,
  defaultHealthPort: 9104,
  usesDatabase: true,
  validateConfig: () => {
    // delivery bodies are stored sealed under the tenant's data key
    KeyEncryptionKeys.fromEnv();
    new RetrySchedule();
  },
});
