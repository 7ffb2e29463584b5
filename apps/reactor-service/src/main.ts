import './tracing';
import 'reflect-metadata';
// its own entry point: the service bootstrap (with its database readiness check) stays out of the gateway's bundle
import { rowsServedBy } from '@coffer/contracts';
import { bootstrapService } from '@coffer/messaging/service-bootstrap';
import { OperationDispatcher } from '@coffer/messaging';
import { validateConfig } from '@coffer/observability';
import { AppModule } from './app.module';
import { ReactorJobs } from './invoke/async/reactor-jobs';
import { startupConfig } from './config';

// every variable is read and checked here, once: a bad value stops the process (exit 78) naming the variable
const config = validateConfig('reactor-service', startupConfig);

void bootstrapService({
  name: 'reactor-service',
  operations: rowsServedBy('reactor'),
  module: AppModule,
  defaultHealthPort: config.healthPort,
  usesDatabase: true,
  invoker: (app) => app.get(OperationDispatcher).invoker(),
  // running asynchronous jobs end and store their outcome while the database pools are still open
  drain: (app) => app.get(ReactorJobs).drain(),
});
