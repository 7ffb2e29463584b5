export { SandboxPool, resolveWorkerLaunch } from './pool';
export { EgressPolicy, EgressDeniedError, classifyAddress } from '@coffer/egress';
export type { AddressClass, EgressPolicyOptions } from '@coffer/egress';
export { egressFetch, EgressFetchError, releaseAgent } from '@coffer/egress';
export type { EgressRequest, EgressResponse, EgressLimits } from '@coffer/egress';
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
  EgressRule,
  EgressRecord,
} from './types';
