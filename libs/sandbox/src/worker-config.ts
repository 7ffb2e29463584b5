import type { WorkerConfig } from './protocol';

type Env = Record<string, string | undefined>;

/**
 * The environment a sandbox worker process starts with: a clean one, no service secrets. Only what the launch needs
 * (`launchEnv`: ts-node's settings when run from sources), Node's module path and NODE_ENV (default production) passed
 * on from this process's environment, and the worker's limits in COFFER_SANDBOX_CONFIG (read back by
 * {@link workerConfigFromEnv}). None of it is operator configuration.
 */
export function workerEnvironment(config: WorkerConfig, launchEnv: Readonly<Record<string, string>>, env: Env = process.env): Record<string, string> {
  const nodePath = env['NODE_PATH'];
  return {
    ...launchEnv,
    ...(nodePath ? { NODE_PATH: nodePath } : {}),
    NODE_ENV: env['NODE_ENV'] ?? 'production',
    COFFER_SANDBOX_CONFIG: JSON.stringify(config),
  };
}

/** In the worker process: the limits its pool handed it (COFFER_SANDBOX_CONFIG, see {@link workerEnvironment}). */
export function workerConfigFromEnv(env: Env = process.env): WorkerConfig {
  return JSON.parse(env['COFFER_SANDBOX_CONFIG'] ?? '{}') as WorkerConfig;
}
