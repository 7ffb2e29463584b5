import './tracing';
import 'reflect-metadata';
// its own entry point: the service bootstrap (with its database readiness check) stays out of the gateway's bundle
import { rowsServedBy } from '@coffer/contracts';
import { bootstrapService } from '@coffer/service-bootstrap';
import { AppModule } from './app.module';
import { sessionServiceConfig } from './config';

void bootstrapService({
  name: 'session-service',
  operations: rowsServedBy('session'),
  module: AppModule,
  // every variable is read and checked first, once: a bad value stops the process (exit 78) naming the variable
  config: sessionServiceConfig,
  usesDatabase: true,
});
