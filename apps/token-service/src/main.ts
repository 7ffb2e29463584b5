import './tracing';
import 'reflect-metadata';
// its own entry point: the service bootstrap (with its database readiness check) stays out of the gateway's bundle
import { rowsServedBy } from '@coffer/contracts';
import { bootstrapService } from '@coffer/messaging/service-bootstrap';
import { OperationDispatcher } from '@coffer/messaging';
import { validateConfig } from '@coffer/observability';
import { AppModule } from './app.module';
import { startupConfig } from './config';

// every variable is read and checked here, once: a bad value stops the process (exit 78) naming the variable
const config = validateConfig('token-service', startupConfig);

void bootstrapService({
  name: 'token-service',
  operations: rowsServedBy('token'),
  module: AppModule,
  defaultHealthPort: config.healthPort,
  usesDatabase: true,
  invoker: (app) => app.get(OperationDispatcher).invoker(),
});
