import { Counter } from 'prom-client';
import { metricsRegistry } from '@coffer/observability';
import { KeyCustodyUnavailableError } from '../kek';

/**
 * Failed wraps and unwraps of the key-encryption key provider, by provider (`env`, `pkcs11`) and reason:
 * `unavailable` (the HSM cannot be reached or did not answer: the caller got a 503) or `failed` (the provider
 * answered with an error: a wrapped key that does not open, an unknown key id). Only cold keys reach the provider, so
 * any count is worth a look.
 */
export const keyProviderErrors = new Counter({
  name: 'coffer_key_provider_errors_total',
  help: 'Key-encryption key operations (wrap, unwrap) that failed, by provider and reason (unavailable, failed)',
  labelNames: ['provider', 'reason'] as const,
  registers: [metricsRegistry],
});

/** Both reasons of `provider` from 0, so that increase() sees the first error (a series born at 1 shows none). */
export function startCountingKeyProviderErrors(provider: string): void {
  for (const reason of ['unavailable', 'failed']) keyProviderErrors.inc({ provider, reason }, 0);
}

export function countKeyProviderError(provider: string, err: unknown): void {
  keyProviderErrors.inc({ provider, reason: err instanceof KeyCustodyUnavailableError ? 'unavailable' : 'failed' });
}
