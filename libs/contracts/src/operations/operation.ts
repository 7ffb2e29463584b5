import type { Principal } from '../auth/principal';
import type { JsonLimitOptions } from '../json-limits';

/** A payload contract class (class-validator rules, optional ContractStatics). */
export type PayloadClass = new () => object;

/**
 * Who may call an operation: `none` (no principal needed: readiness pings, authentication itself), `principal` (any
 * authenticated principal of the tenant), or the permissions of which the principal needs any one.
 */
export type Access = 'none' | 'principal' | readonly string[];

/**
 * How a write is made idempotent under SVC-IDEMPOTENCY-KEY (docs/api-reference.md): `transaction` records the key in
 * the write's own transaction (a repeat racing the first waits for its commit); `exclusive` claims the key first, for
 * work with effects outside the database that cannot be rolled back (a synchronous react); `none`: not a write.
 */
export type IdempotencyMode = 'none' | 'transaction' | 'exclusive';

/** Where the JSON limits are checked before any handler code walks the body. */
export interface JsonLimitRule {
  /** the member of the body to check (the whole body when absent) */
  field?: string;
  options?: JsonLimitOptions;
  /** a member of the body naming the checked value in errors (detokenize's `path`) */
  rootFrom?: string;
}

/**
 * One NATS operation (docs/nats.md, "Operations"): its subject, payload contract, who may call it, the limits and
 * validation its body gets before the handler runs, and its idempotency. `B` and `R` are the body and reply types,
 * carried for callers (`rpc.call(OPS.token.tokens.create, body, ctx)`) and never present at run time.
 */
export interface OperationRow<B = unknown, R = unknown> {
  readonly subject: string;
  /** the payload's contract class (two for POST /reactors: a formula reactor or a code reactor) */
  readonly payload: PayloadClass | readonly PayloadClass[];
  /** fixed, or decided by the body (an `internal` read) or the principal (management vs. application) */
  readonly access: Access | ((body: unknown, principal: Principal) => Access);
  /**
   * The dispatcher validates the body with `payload` (validateContract, no whitelisting: the edge already dropped
   * unknown members of HTTP bodies, and a service refuses rather than rewrites what reaches it from elsewhere).
   * False where the owning service still validates the body itself, with its own field paths and messages.
   */
  readonly validate: boolean;
  readonly jsonLimits?: JsonLimitRule;
  readonly idempotency: IdempotencyMode | ((body: unknown) => IdempotencyMode);
  /** `exclusive`: how long a claim holds the key before a repeat may take it over */
  readonly leaseMs?: number;
  /** service-to-service only: never called by the gateway, never reachable from a reactor's `svc` */
  readonly internal: boolean;
  /** phantom: the body and reply types */
  readonly types?: { body: B; reply: R };
}

export type BodyOf<O> = O extends OperationRow<infer B, unknown> ? B : never;
export type ReplyOf<O> = O extends OperationRow<unknown, infer R> ? R : never;

/** The fields a row may leave out: what most rows are (not validated by the dispatcher, not a write, callable by the gateway). */
export const OPERATION_DEFAULTS = { validate: false, idempotency: 'none', internal: false } as const satisfies Pick<
  OperationRow,
  'validate' | 'idempotency' | 'internal'
>;

/** What a row spells out: everything but the phantom types, the defaulted fields optional. */
export type OperationRowInput<B, R> = Omit<OperationRow<B, R>, 'types' | keyof typeof OPERATION_DEFAULTS> &
  Partial<Pick<OperationRow<B, R>, keyof typeof OPERATION_DEFAULTS>>;

/**
 * A row with its types: `op<CreateTokenRequest, TokenView>()({...})`. `validate`, `idempotency` and `internal` take
 * OPERATION_DEFAULTS when absent, so readers always find them.
 */
export function op<B, R = unknown>() {
  return (row: OperationRowInput<B, R>): OperationRow<B, R> => ({ ...OPERATION_DEFAULTS, ...row });
}

/** Every row under a node of the table (depth first). */
export function operationRows(node: unknown): OperationRow[] {
  if (typeof node !== 'object' || node === null) return [];
  if (typeof (node as OperationRow).subject === 'string' && 'idempotency' in node) return [node as OperationRow];
  return Object.values(node).flatMap(operationRows);
}
