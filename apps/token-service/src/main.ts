import './tracing';
import 'reflect-metadata';
// its own entry point: the service bootstrap (with its database readiness check) stays out of the gateway's bundle
import { rowsServedBy } from '@coffer/contracts';
import { bootstrapService } from '@coffer/service-bootstrap';
import { AppModule } from './app.module';
import { tokenServiceConfig } from './config';

void bootstrapService({
  name: 'token-service',
  operations: rowsServedBy('token'),
  module: AppModule,
  // every variable is read and checked first, once: a bad value stops the process (exit 78) naming the variable
  config: tokenServiceConfig,
  usesDatabase: true,
});
