import { badRequest } from '@coffer/contracts';
import type { EgressPolicy } from '@coffer/egress';

/**
 * A webhook's `url` obeys the callback policy (docs/webhooks.md): https to a public address unless
 * ALLOW_PRIVATE_CALLBACKS=true. Checked when the webhook is written (after DNS resolution) and again at every delivery.
 */
export async function checkReceiverUrl(policy: EgressPolicy, value: string): Promise<string> {
  const reason = policy.allowPrivate ? 'must be an http(s) URL whose host resolves' : 'must be an https URL to a public address';
  try {
    const url = policy.checkUrl(value);
    await policy.resolve(url.hostname); // throws for private, loopback, link-local and metadata destinations
    return url.toString();
  } catch {
    throw badRequest('The webhook URL is not allowed', { url: [reason] });
  }
}
