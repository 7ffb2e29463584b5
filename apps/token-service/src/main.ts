import 'reflect-metadata';
import { bootstrapService } from '@coffer/messaging';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { AppModule } from './app.module';

void bootstrapService({
  name: 'token-service',
  module: AppModule,
  defaultHealthPort: 9101,
  usesDatabase: true,
  validateConfig: () => KeyEncryptionKeys.fromEnv(),
});
