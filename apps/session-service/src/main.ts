import 'reflect-metadata';
import { bootstrapService } from '@coffer/messaging';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { AppModule } from './app.module';

void bootstrapService({
  name: 'session-service',
  module: AppModule,
  defaultHealthPort: 9102,
  usesDatabase: true,
  validateConfig: () => KeyEncryptionKeys.fromEnv(),
});
