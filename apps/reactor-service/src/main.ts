import 'reflect-metadata';
import { bootstrapService } from '@coffer/messaging';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { AppModule } from './app.module';

void bootstrapService({
  name: 'reactor-service',
  module: AppModule,
  defaultHealthPort: 9103,
  usesDatabase: true,
  validateConfig: () => KeyEncryptionKeys.fromEnv(),
});
