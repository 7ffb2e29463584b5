import { badRequest } from '@coffer/contracts';
import { acceptedCallbackUrl, callbackUrlRule, type EgressPolicy } from '@coffer/egress';

/**
 * A webhook's `url` obeys the callback policy (docs/webhooks.md): https to a public address unless
 * ALLOW_PRIVATE_CALLBACKS=true. Checked when the webhook is written (after DNS resolution) and again at every delivery.
 */
export async function checkReceiverUrl(policy: EgressPolicy, value: string): Promise<string> {
  const url = await acceptedCallbackUrl(policy, value);
  if (url === undefined) throw badRequest('The webhook URL is not allowed', { url: [callbackUrlRule(policy)] });
  return url;
}
