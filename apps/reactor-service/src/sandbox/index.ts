export { SandboxPool, resolveWorkerLaunch } from './pool';
export { EgressPolicy, EgressDeniedError, classifyAddress } from './egress-policy';
export type { AddressClass, EgressPolicyOptions } from './egress-policy';
export { egressFetch, EgressFetchError } from './egress-fetch';
export type { EgressRequest, EgressResponse, EgressLimits } from './egress-fetch';
export { REACTOR_ERRORS } from './outcome';
export { SVC_METHODS } from './types';
export type {
  SandboxInvocation,
  SvcBridge,
  SvcCallContext,
  SvcMethod,
  SandboxOutcome,
  SandboxProblem,
  SandboxCustomResponse,
  SandboxPoolOptions,
  SandboxPoolEvent,
} from './types';
