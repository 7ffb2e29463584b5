import type { EgressPolicy } from './egress-policy';

/**
 * What a URL Coffer calls back (a reactor's callback_url, a webhook's url) must be under the callback policy
 * (EgressPolicy.callbacks, ALLOW_PRIVATE_CALLBACKS), in the words a refused client is told.
 */
export function callbackUrlRule(policy: EgressPolicy): string {
  return policy.allowPrivate ? 'must be an http(s) URL whose host resolves' : 'must be an https URL to a public address';
}

/**
 * A callback URL checked when it is written as it will be at every call: its scheme, and every address its host
 * resolves to (private, loopback, link-local and metadata destinations are refused unless the policy allows private
 * ones). The URL as it will be called, or undefined when it is refused: the caller says why with callbackUrlRule.
 */
export async function acceptedCallbackUrl(policy: EgressPolicy, value: string): Promise<string | undefined> {
  try {
    const url = policy.checkUrl(value);
    await policy.resolve(url.hostname);
    return url.toString();
  } catch {
    return undefined;
  }
}
