import { BasisTheoryClient } from '@basis-theory/node-sdk';
import { BasisTheory } from '@basis-theory/basis-theory-js';
import type { BasisTheory as BtJs } from '@basis-theory/basis-theory-js/types/sdk';
import { gatewayUrl } from '@coffer/testing';

/**
 * The gateway as `http://localhost:<port>`: the mirrored JS SDK rewrites every other host to https (its own rule),
 * so both SDKs are pointed at localhost, exactly as a migrating team would configure them.
 */
export function localhostUrl(): string {
  return `http://localhost:${new URL(gatewayUrl()).port}`;
}

/** @basis-theory/node-sdk 5.7.0, unchanged: it sends BT-API-KEY (the e2e system runs with HEADER_ALIAS_PREFIXES=BT). */
export function nodeSdk(apiKey: string): BasisTheoryClient {
  return new BasisTheoryClient({ apiKey, baseUrl: localhostUrl(), maxRetries: 0 });
}

/** @basis-theory/basis-theory-js 4.30.2, unchanged (telemetry off: it would post errors to a third party). */
export function btJs(apiKey: string): Promise<BtJs> {
  return new BasisTheory().init(apiKey, { apiBaseUrl: localhostUrl(), disableTelemetry: true });
}

export type { BtJs };

/** The pagination a node-sdk pager parsed (camelCase), which its type keeps private. */
export function parsedPagination(
  page: object,
): { pageSize?: number; pageNumber?: number; totalItems?: number; totalPages?: number; next?: string } | undefined {
  return (page as { response?: { pagination?: ReturnType<typeof parsedPagination> } }).response?.pagination;
}

/** Polls until `check` gives a value (asynchronous results, webhooks). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
