import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createLogger } from '@coffer/observability';
import { SandboxPool, type SandboxInvocation, type SandboxOutcome, type SvcBridge } from '@coffer/sandbox';
import { SANDBOX_ISOLATES_PER_WORKER, SANDBOX_WORKERS, reactorServiceConfig } from '../config';
import { recordEgress } from './egress-metrics';

/**
 * One sandbox pool per process (worker processes running isolated-vm, started with the first invocation and stopped
 * after SANDBOX_IDLE_EXIT_MS without one), closed when the service stops.
 */
@Injectable()
export class ReactorSandbox implements OnApplicationShutdown {
  private readonly pool: SandboxPool;

  constructor() {
    const logger = createLogger('reactor-sandbox');
    this.pool = new SandboxPool({
      size: SANDBOX_WORKERS,
      concurrency: SANDBOX_ISOLATES_PER_WORKER,
      // fair shares between tenants: round-robin queues, each tenant's running and waiting invocations capped
      maxRunningPerTenant: reactorServiceConfig().sandboxMaxRunningPerTenant,
      maxQueuedPerTenant: reactorServiceConfig().sandboxMaxQueuedPerTenant,
      // SANDBOX_IDLE_EXIT_MS: the worker processes start with the first invocation and stop when idle that long
      idleExitMs: reactorServiceConfig().sandboxIdleExitMs,
      // ALLOW_PRIVATE_EGRESS, from the validated configuration (the pool's own env fallback is for tests)
      allowPrivateEgress: reactorServiceConfig().allowPrivateEgress,
      // EGRESS_ALLOW_HOSTS: operator allow-list of hosts exempt from the address check (partner hosts inside the network; tests)
      allowHosts: [...reactorServiceConfig().egressAllowHosts],
      // every outbound request of formula code: counted, and logged with host, status, bytes and duration only
      onEgress: (record) => {
        recordEgress(record);
        logger.info(
          { host: record.host, outcome: record.outcome, status: record.status, bytes: record.bytes, duration_ms: record.durationMs, tenant_id: record.tenant },
          'reactor egress',
        );
      },
      onEvent: (event) => {
        const routine = event.type === 'worker-started' || (event.type === 'worker-exited' && event.code === 0 && event.inFlight === 0);
        if (routine) logger.debug(event, 'sandbox worker');
        else logger.warn(event, 'sandbox worker');
      },
    });
  }

  run(inv: SandboxInvocation, svc: SvcBridge | null): Promise<SandboxOutcome> {
    return this.pool.run(inv, svc);
  }

  /** the process is stopping: the pool no longer runs anything */
  get closed(): boolean {
    return this.pool.isClosed;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
