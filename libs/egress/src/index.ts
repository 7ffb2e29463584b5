export { EgressPolicy, EgressDeniedError, classifyAddress, unreachable } from './egress-policy';
export { allowPrivateCallbacksFromEnv, allowPrivateEgressFromEnv, isSwitchOn } from './egress-config';
export type { AddressClass, EgressPolicyOptions } from './egress-policy';
export { egressFetch, EgressFetchError, releaseAgent } from './egress-fetch';
export type { EgressRequest, EgressResponse, EgressLimits } from './egress-fetch';
export { HostAllowList, HOST_PATTERN, normalizeHostName } from './host-allow-list';
export { HOP_BY_HOP, connectionNamed, withoutHopByHop } from './hop-by-hop';
export { redactedUrl } from './redacted-url';
export { acceptedCallbackUrl, callbackUrlRule } from './callback-url';
