import { Injectable, Optional } from '@nestjs/common';
import {
  OPS,
  assertJsonLimits,
  deadlineOf,
  operationRows,
  validateContract,
  type Access,
  type OperationRow,
  type PayloadClass,
  type Principal,
  type RpcEnvelope,
} from '@coffer/contracts';
import { requirePrincipal } from '@coffer/auth';
import { IdempotentWrites, type ReplayCodec } from '@coffer/idempotency';
import { currentRequestDeadline, type HandlerInvoker } from '@coffer/bus';
import type { Command } from './command';
import { withActingContext } from './acting-context';

/** How a service's handler of an idempotent operation wants its replays and records made (registered by the handler). */
export interface OperationHandling<B = unknown> {
  /** renders the reply for the first caller and each repeat; default: recorded as is, replayed as recorded */
  codec?: (cmd: Command<B>) => ReplayCodec<unknown, unknown>;
  /**
   * The handler opens its transaction itself and records the key in it through `cmd.idempotency` (token-service:
   * it looks keys and settings up before opening it, so the transaction never waits on another service).
   */
  recordsItself?: boolean;
}

/**
 * Serves the operation table (libs/contracts operations; docs/nats.md): for each request it finds the subject's row
 * and, before the handler runs, checks the caller (401 without a principal, 403 without any of the row's
 * permissions), the JSON limits, and the body against the row's contract class; then it calls the handler with a
 * Command, through the one idempotency wrapper (IdempotentWrites.perform) in the row's mode.
 */
@Injectable()
export class OperationDispatcher {
  private readonly rows = new Map<string, OperationRow>(operationRows(OPS).map((r) => [r.subject, r]));
  private readonly handling = new Map<string, OperationHandling>();

  constructor(@Optional() private readonly writes?: IdempotentWrites) {}

  /** Registers how the handler of `row` wants its idempotent replies recorded and replayed. */
  handle<B>(row: OperationRow<B, unknown>, handling: OperationHandling<B>): void {
    this.handling.set(row.subject, handling as OperationHandling);
  }

  /** The transport hook (HandlerInvoker) this dispatcher provides. */
  invoker(): HandlerInvoker {
    return (subject, envelope, call) => this.dispatch(subject, envelope, call);
  }

  async dispatch(subject: string, env: RpcEnvelope, call: (data: unknown) => Promise<unknown>): Promise<unknown> {
    const row = this.rows.get(subject);
    if (!row) return call(env);
    const principal = authorize(row, env);
    // the handler runs as its caller: the use cases read who acts (caller()) and the trace from here, as AuditTrail does
    return withActingContext({ principal, traceId: env?.traceId }, () => this.run(row, env, call));
  }

  private async run(row: OperationRow, env: RpcEnvelope, call: (data: unknown) => Promise<unknown>): Promise<unknown> {
    const subject = row.subject;
    const body = env?.body;
    checkJsonLimits(row, body);
    const cmd: Command = {
      body: row.validate ? validateContract(payloadClass(row), body ?? {}) : body,
      deadline: currentRequestDeadline() ?? deadlineOf(env),
    };
    if (typeof env?.idempotencyKey === 'string') cmd.idempotencyKey = env.idempotencyKey;
    const mode = typeof row.idempotency === 'function' ? row.idempotency(body) : row.idempotency;
    if (mode === 'none') return call(cmd);
    if (!this.writes) throw new Error(`${subject} is idempotent: the service must provide IdempotentWrites`);
    const handling = this.handling.get(subject);
    return this.writes.perform(
      {
        mode,
        request: this.writes.request(subject, env),
        codec: handling?.codec?.(cmd),
        leaseMs: row.leaseMs,
        recordsItself: handling?.recordsItself,
      },
      (write) => call(write ? { ...cmd, idempotency: write } : cmd),
    );
  }
}

/** The caller of a row, with requirePrincipal's 401 and 403 (one home for their rules and messages). */
function authorize(row: OperationRow, env: RpcEnvelope | undefined): Principal | undefined {
  if (row.access === 'none') return env?.principal;
  if (typeof row.access !== 'function') return requirePrincipal(env ?? EMPTY, permissionsOf(row.access));
  const principal = requirePrincipal(env ?? EMPTY);
  return requirePrincipal(env ?? EMPTY, permissionsOf(row.access(env?.body, principal)));
}

const EMPTY: RpcEnvelope = { traceId: '', body: undefined };

function permissionsOf(access: Access): readonly string[] | undefined {
  return access === 'none' || access === 'principal' ? undefined : access;
}

function checkJsonLimits(row: OperationRow, body: unknown): void {
  const rule = row.jsonLimits;
  if (!rule) return;
  const b = body as Record<string, unknown> | undefined;
  const value = rule.field === undefined ? body : b?.[rule.field];
  const root = rule.rootFrom !== undefined && typeof b?.[rule.rootFrom] === 'string' ? (b[rule.rootFrom] as string) : '';
  assertJsonLimits(value, rule.options ?? {}, root);
}

function payloadClass(row: OperationRow): PayloadClass {
  if (Array.isArray(row.payload)) throw new Error(`${row.subject}: a row with several payload classes cannot be validated by the dispatcher`);
  return row.payload as PayloadClass;
}
