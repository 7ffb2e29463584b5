import { badRequest } from '@coffer/contracts';
import { acceptedCallbackUrl, callbackUrlRule, type EgressPolicy } from '@coffer/egress';

/**
 * callback_url must be https to a public address unless ALLOW_PRIVATE_CALLBACKS=true (docs/reactors.md). Checked
 * here at accept time (after DNS resolution) and again by webhook-dispatcher at every delivery.
 */
export async function checkCallbackUrl(policy: EgressPolicy, value: unknown): Promise<string> {
  if (typeof value !== 'string' || value.length > 2048) throw badRequest('The callback URL is invalid', { callback_url: [callbackUrlRule(policy)] });
  const url = await acceptedCallbackUrl(policy, value);
  if (url === undefined) throw badRequest('The callback URL is not allowed', { callback_url: [callbackUrlRule(policy)] });
  return url;
}
