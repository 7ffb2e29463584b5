import './tracing';
import 'reflect-metadata';
// its own entry point: the service bootstrap (with its database readiness check) stays out of the gateway's bundle
import { rowsServedBy } from '@coffer/contracts';
import { bootstrapService } from '@coffer/service-bootstrap';
import { AppModule } from './app.module';
import { ReactorJobs } from './invoke/async/reactor-jobs';
import { reactorServiceConfig } from './config';

void bootstrapService({
  name: 'reactor-service',
  operations: rowsServedBy('reactor'),
  module: AppModule,
  // every variable is read and checked first, once: a bad value stops the process (exit 78) naming the variable
  config: reactorServiceConfig,
  usesDatabase: true,
  // running asynchronous jobs end and store their outcome while the database pools are still open
  drain: (app) => app.get(ReactorJobs).drain(),
});
