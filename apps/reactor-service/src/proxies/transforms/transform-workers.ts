import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { reactorServiceConfig } from '../../config';
import { TransformPool } from './transform-pool';

/** reactor-service's transform threads (PROXY_TRANSFORM_WORKERS), stopped with the service. */
@Injectable()
export class TransformWorkers extends TransformPool implements OnApplicationShutdown {
  constructor() {
    const size = reactorServiceConfig().proxyTransformWorkers;
    // half the threads per tenant (at least one): one tenant's large answers always leave the rest to the others
    super({ size, maxRunningPerTenant: Math.max(1, Math.floor(size / 2)), maxQueuedPerTenant: 20 });
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
