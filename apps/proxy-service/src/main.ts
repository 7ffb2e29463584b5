import './tracing';
import 'reflect-metadata';
import tls from 'node:tls';
// its own entry point: the service bootstrap stays out of the gateway's bundle
import { rowsServedBy } from '@coffer/contracts';
import { bootstrapService } from '@coffer/service-bootstrap';
import { AppModule } from './app.module';
import { proxyServiceConfig } from './config';

// destinations are reached over TLS 1.2 or later, whatever node flags (--tls-min-v1.0) the process was started with
if (tls.DEFAULT_MIN_VERSION !== 'TLSv1.3') tls.DEFAULT_MIN_VERSION = 'TLSv1.2';

void bootstrapService({
  name: 'proxy-service',
  operations: rowsServedBy('proxy'),
  module: AppModule,
  // every variable is read and checked first, once: a bad value stops the process (exit 78) naming the variable
  config: proxyServiceConfig,
  usesDatabase: false,
});
