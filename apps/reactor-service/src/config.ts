import { databasePoolSize } from '@coffer/db';
import { configOnce, envBool, envInt, envList, loadProcessConfig, type ProcessConfig } from '@coffer/observability';

/** Everything reactor-service reads from the environment (docs/operations.md#configuration). */
export interface ReactorServiceConfig extends ProcessConfig {
  /** DATABASE_POOL_SIZE: 1–1000, default 10 (per pool) */
  readonly databasePoolSize: number;
  /** ALLOW_PRIVATE_EGRESS: boolean (true/1/yes, false/0/no), default false: formula fetch may reach private addresses */
  readonly allowPrivateEgress: boolean;
  /** EGRESS_ALLOW_HOSTS: comma list of exact host names or IP literals exempt from the address check, default none */
  readonly egressAllowHosts: readonly string[];
  /** ALLOW_PRIVATE_CALLBACKS: boolean, default false: http and private callback_url accepted */
  readonly allowPrivateCallbacks: boolean;
  /** REACTOR_JOB_POLL_INTERVAL_MS: 10 ms – 1 h, default 60 000: the job workers' safety sweep (wake-ups and due leases run them otherwise) */
  readonly reactorJobPollIntervalMs: number;
  /** REACTOR_JOB_CONCURRENCY: 1–1000, default 4 */
  readonly reactorJobConcurrency: number;
  /** REACTOR_JOB_LEASE_SLACK_MS: 0 – 1 day, default 30 000 */
  readonly reactorJobLeaseSlackMs: number;
  /** SANDBOX_MAX_RUNNING_PER_TENANT: 1–1000, default half the sandbox's isolates (4): one tenant's share of them */
  readonly sandboxMaxRunningPerTenant: number;
  /** SANDBOX_MAX_QUEUED_PER_TENANT: 1–100 000, default 100: one tenant's invocations waiting for an isolate */
  readonly sandboxMaxQueuedPerTenant: number;
  /**
   * SANDBOX_IDLE_EXIT_MS: 0 – 1 day, default 60 000: the sandbox's worker processes start with the first invocation
   * and stop after this long without one (0: started with the service and kept)
   */
  readonly sandboxIdleExitMs: number;
  /** PROXY_TRANSFORM_WORKERS: 1–16, default 2: worker threads running proxies' mask, append and tokenize transforms */
  readonly proxyTransformWorkers: number;
  /** PROXY_TRANSFORM_BUDGET_MS: 100–14 000, default 5 000: what one call's transforms (code aside) may take in them */
  readonly proxyTransformBudgetMs: number;
  /** PROXY_TRANSFORM_MAX_BYTES: 1 KiB – 5 MiB, default 5 MiB: the largest body a transform may leave */
  readonly proxyTransformMaxBytes: number;
  /** JOB_RETENTION_DAYS: 1–3 650, default 30: finished asynchronous jobs (and their results) older than this are pruned */
  readonly jobRetentionDays: number;
  /** RETENTION_INTERVAL_MS: 1 s – 1 day, default 600 000 (10 min): how often pruning runs */
  readonly retentionIntervalMs: number;
}

/** Worker processes × isolates per worker of the sandbox pool (ReactorSandbox). */
export const SANDBOX_WORKERS = 2;
export const SANDBOX_ISOLATES_PER_WORKER = 4;

export const DEFAULT_HEALTH_PORT = 9103;

/** The settings (all have defaults); throws ConfigError naming the first bad variable. */
export function loadReactorServiceConfig(): ReactorServiceConfig {
  return {
    ...loadProcessConfig(DEFAULT_HEALTH_PORT),
    databasePoolSize: databasePoolSize(),
    allowPrivateEgress: envBool('ALLOW_PRIVATE_EGRESS', false),
    egressAllowHosts: envList('EGRESS_ALLOW_HOSTS', '', (host) =>
      /^[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/.test(host) ? null : `"${host}" is not a host name or IP literal (no scheme, port or path)`,
    ),
    allowPrivateCallbacks: envBool('ALLOW_PRIVATE_CALLBACKS', false),
    reactorJobPollIntervalMs: envInt('REACTOR_JOB_POLL_INTERVAL_MS', 60_000, 10, 3_600_000),
    reactorJobConcurrency: envInt('REACTOR_JOB_CONCURRENCY', 4, 1, 1000),
    reactorJobLeaseSlackMs: envInt('REACTOR_JOB_LEASE_SLACK_MS', 30_000, 0, 86_400_000),
    // half: one tenant's long-running code always leaves the other half of the isolates to every other tenant
    sandboxMaxRunningPerTenant: envInt('SANDBOX_MAX_RUNNING_PER_TENANT', Math.ceil((SANDBOX_WORKERS * SANDBOX_ISOLATES_PER_WORKER) / 2), 1, 1000),
    sandboxMaxQueuedPerTenant: envInt('SANDBOX_MAX_QUEUED_PER_TENANT', 100, 1, 100_000),
    sandboxIdleExitMs: envInt('SANDBOX_IDLE_EXIT_MS', 60_000, 0, 86_400_000),
    proxyTransformWorkers: envInt('PROXY_TRANSFORM_WORKERS', 2, 1, 16),
    // below the 15 s deadline of the call that waits for them (proxy-service's, a synchronous react's)
    proxyTransformBudgetMs: envInt('PROXY_TRANSFORM_BUDGET_MS', 5_000, 100, 14_000),
    proxyTransformMaxBytes: envInt('PROXY_TRANSFORM_MAX_BYTES', 5 * 1024 * 1024, 1024, 5 * 1024 * 1024),
    jobRetentionDays: envInt('JOB_RETENTION_DAYS', 30, 1, 3650),
    retentionIntervalMs: envInt('RETENTION_INTERVAL_MS', 600_000, 1_000, 86_400_000),
  };
}

const config = configOnce(loadReactorServiceConfig);
/** reactor-service's configuration, read once (the service bootstrap reads it first, after the database and key settings). */
export const reactorServiceConfig = config.get;
