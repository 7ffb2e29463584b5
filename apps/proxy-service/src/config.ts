import { ConfigError, configOnce, envBool, envInt, envList, loadProcessConfig, type ProcessConfig } from '@coffer/observability';
import { PROXY_DESTINATION_TIMEOUT_MS } from '@coffer/contracts';

/** Everything proxy-service reads from the environment (docs/operations.md#configuration, docs/proxy.md). */
export interface ProxyServiceConfig extends ProcessConfig {
  /**
   * PROXY_ALLOW_PRIVATE_EGRESS: boolean, default false: destinations may resolve to loopback/private/link-local
   * addresses. The proxy's own switch: the reactors' ALLOW_PRIVATE_EGRESS (formula `fetch`) does not open it.
   */
  readonly allowPrivateEgress: boolean;
  /** EGRESS_ALLOW_HOSTS: comma list of exact host names exempt from the address check (the reactors' list), default none */
  readonly egressAllowHosts: readonly string[];
  /** PROXY_DESTINATION_TIMEOUT_MS: 100 ms – 25 s, default 25 000: a destination slower than this gets the caller a 408 */
  readonly destinationTimeoutMs: number;
  /** PROXY_MAX_RESPONSE_BYTES: 1 KiB – 5 MiB, default 4 MiB: a larger destination response is refused with 502 */
  readonly maxResponseBytes: number;
  /** PROXY_MAX_IN_FLIGHT: 0–10 000 (0: no limit), default 64: calls served at once, shared between tenants */
  readonly maxInFlight: number;
  /** PROXY_MAX_IN_FLIGHT_BYTES: 0 (no limit) or 1 MiB – 4 GiB, default 64 MiB: request and answer bytes those calls hold */
  readonly maxInFlightBytes: number;
  /**
   * PROXY_MAX_BYTES_PER_SECOND: 0 (no limit) or 1 MiB – 4 GiB, default 16 MiB: request and answer bytes relayed per
   * second, shared between tenants (a tenant's share of it is its rate)
   */
  readonly maxBytesPerSecond: number;
  /** PROXY_TENANT_SHARE_PERCENT: 1–100, default 50: the most of any of the three budgets one tenant may hold */
  readonly tenantSharePercent: number;
}

export const DEFAULT_HEALTH_PORT = 9106;
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export function loadProxyServiceConfig(): ProxyServiceConfig {
  return {
    ...loadProcessConfig(DEFAULT_HEALTH_PORT),
    allowPrivateEgress: envBool('PROXY_ALLOW_PRIVATE_EGRESS', false),
    egressAllowHosts: envList('EGRESS_ALLOW_HOSTS', '', (host) =>
      /^[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/.test(host) ? null : `"${host}" is not a host name or IP literal (no scheme, port or path)`,
    ),
    destinationTimeoutMs: envInt('PROXY_DESTINATION_TIMEOUT_MS', PROXY_DESTINATION_TIMEOUT_MS, 100, PROXY_DESTINATION_TIMEOUT_MS),
    maxResponseBytes: envInt('PROXY_MAX_RESPONSE_BYTES', 4 * 1024 * 1024, 1024, MAX_RESPONSE_BYTES),
    // the gateway's budget and share (HTTP_MAX_IN_FLIGHT, HTTP_TENANT_SHARE_PERCENT): proxy-service serves several gateways
    maxInFlight: envInt('PROXY_MAX_IN_FLIGHT', 64, 0, 10_000),
    maxInFlightBytes: byteBudget('PROXY_MAX_IN_FLIGHT_BYTES', 64 * MiB),
    maxBytesPerSecond: byteBudget('PROXY_MAX_BYTES_PER_SECOND', 16 * MiB),
    tenantSharePercent: envInt('PROXY_TENANT_SHARE_PERCENT', 50, 1, 100),
  };
}

const MiB = 1024 * 1024;

/**
 * A byte budget: 0 (no limit) or 1 MiB – 4 GiB. PROXY_MAX_IN_FLIGHT_BYTES' 64 MiB is sixteen of the largest answers
 * (4 MiB) at once, eight of them one tenant's; PROXY_MAX_BYTES_PER_SECOND's 16 MiB a second is two such answers a
 * second for one tenant, each costing this service and the gateway 20 ms of CPU on a quiet day (profiled on 2 cores)
 * and three times that on a busy one, when four a second kept another tenant's requests waiting a second.
 */
function byteBudget(name: string, fallback: number): number {
  const bytes = envInt(name, fallback, 0, 4 * 1024 * MiB);
  if (bytes !== 0 && bytes < MiB) throw new ConfigError(`${name} must be 0 (no limit) or at least 1048576 (1 MiB)`);
  return bytes;
}

const config = configOnce(loadProxyServiceConfig);
/** proxy-service's configuration, read once (the service bootstrap reads it first). */
export const proxyServiceConfig = config.get;
