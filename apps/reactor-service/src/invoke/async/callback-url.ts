import { badRequest } from '@coffer/contracts';
import type { EgressPolicy } from '@coffer/egress';

/**
 * callback_url must be https to a public address unless ALLOW_PRIVATE_CALLBACKS=true (docs/reactors.md). Checked
 * here at accept time (after DNS resolution) and again by webhook-dispatcher at every delivery.
 */
export async function checkCallbackUrl(policy: EgressPolicy, value: unknown): Promise<string> {
  const reason = policy.allowPrivate ? 'must be an http(s) URL whose host resolves' : 'must be an https URL to a public address';
  if (typeof value !== 'string' || value.length > 2048) throw badRequest('The callback URL is invalid', { callback_url: [reason] });
  try {
    const url = policy.checkUrl(value);
    await policy.resolve(url.hostname); // throws for private, loopback, link-local and metadata destinations
    return url.toString();
  } catch {
    throw badRequest('The callback URL is not allowed', { callback_url: [reason] });
  }
}
