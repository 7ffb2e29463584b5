/**
 * The egress switches read from the environment (docs/operations.md#configuration): ALLOW_PRIVATE_EGRESS (formula
 * `fetch`) and ALLOW_PRIVATE_CALLBACKS (webhook and callback deliveries). The services' own config modules read them
 * with envBool, which also refuses a value that is not a boolean; these are the defaults of the library's own
 * constructors (EgressPolicy.fromEnv and forCallbacks, SandboxPool without `allowPrivateEgress`).
 */

type Env = Record<string, string | undefined>;

/** The switches' spelling, as envBool (libs/observability) reads it: true, 1, yes (any case) are on; anything else off. */
export function isSwitchOn(value: string | undefined): boolean {
  return /^(true|1|yes)$/i.test(value ?? '');
}

/** Whether `variable` (ALLOW_PRIVATE_EGRESS unless another switch is named) allows private addresses. */
export function allowPrivateEgressFromEnv(variable = 'ALLOW_PRIVATE_EGRESS', env: Env = process.env): boolean {
  return isSwitchOn(env[variable]);
}

/** ALLOW_PRIVATE_CALLBACKS: http and private addresses allowed for callbacks (development and tests only). */
export function allowPrivateCallbacksFromEnv(env: Env = process.env): boolean {
  return isSwitchOn(env['ALLOW_PRIVATE_CALLBACKS']);
}
