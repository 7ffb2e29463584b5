import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { isProblem, type Problem } from '../problem/problem';
import type { ReactorFormulaView } from './formulas';
import { ReactorEgressInput, type ReactorEgressView } from './egress-policy';

export const REACTOR_LIMITS = {
  nameLength: 200,
  /** spec: timeout_ms 10000–210000, default 10000; honoured only for asynchronous invocations */
  minTimeoutMs: 10_000,
  maxTimeoutMs: 210_000,
  /** conventions §8: a synchronous run is bounded at 10 s (then 504) */
  syncTimeoutMs: 10_000,
} as const;

export class ReactorRef {
  @IsUUID('all', { message: 'must be a UUID' })
  id!: string;
}

/** PUT /reactors/{id}: replaces name, configuration and application (absent = none). The formula cannot change. */
export class UpdateReactorRequest {
  /** configuration values are secrets, stored encrypted: any string is fine (validateContract's NUL rule) */
  static readonly opaqueFields: readonly string[] = ['configuration'];

  @IsString({ message: 'is required and must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(REACTOR_LIMITS.nameLength, { message: `must be at most ${REACTOR_LIMITS.nameLength} characters` })
  name!: string;

  @IsObject({ message: 'is required and must be an object' })
  configuration!: Record<string, unknown>;

  @IsOptional()
  @IsObject({ message: 'must be an object with an id' })
  @ValidateNested()
  @Type(() => ReactorRef)
  application?: ReactorRef | null;

  /** The hosts its code may reach (egress-policy.ts); absent or null: the tenant's default. */
  @IsOptional()
  @IsObject({ message: 'must be an object with an allow list' })
  @ValidateNested()
  @Type(() => ReactorEgressInput)
  egress?: ReactorEgressInput | null;
}

/** POST /reactors: the same fields plus the formula. `configuration` must satisfy its contract (reactor-service). */
export class CreateReactorRequest extends UpdateReactorRequest {
  @IsObject({ message: 'is required and must be an object with an id' })
  @ValidateNested()
  @Type(() => ReactorRef)
  formula!: ReactorRef;
}

/** POST /reactors/{id}/react */
export class ReactRequest {
  /** args reach the formula (and are stored encrypted for asynchronous runs): any string is fine */
  static readonly opaqueFields: readonly string[] = ['args'];

  @IsOptional()
  @IsObject({ message: 'must be an object' })
  args?: Record<string, unknown> | null;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  callback_url?: string | null;

  @IsOptional()
  @IsInt({ message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  @Min(REACTOR_LIMITS.minTimeoutMs, { message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  @Max(REACTOR_LIMITS.maxTimeoutMs, { message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  timeout_ms?: number | null;
}

export interface ReactorView {
  id: string;
  tenant_id: string;
  name: string;
  /** formula reactors; a code reactor has `code` (and `runtime` when it was given) instead */
  formula?: ReactorFormulaView;
  code?: string;
  runtime?: Record<string, unknown>;
  application?: { id: string };
  configuration: Record<string, unknown>;
  egress?: ReactorEgressView;
  created_by?: string;
  created_at: string;
  modified_by?: string;
  modified_at?: string;
}

/** The Reactor Response of a synchronous invocation. */
export interface ReactResponse {
  tokens?: unknown;
  raw?: unknown;
}

/** reactor.*.update and reactor.reactors.react carry the path id next to the HTTP body. */
export interface ReactorBodyRequest {
  id: string;
  body: unknown;
}

/**
 * A formula that throws `CustomHttpResponseError({status, headers, body})` answers the HTTP call itself. The reply
 * crosses the bus as a problem document (so every other hop treats it as a failure) with this extra `custom`
 * member; the gateway's react route recognises it and returns status, headers and body verbatim.
 */
export interface CustomReactorResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ReactorCustomProblem extends Problem {
  custom: CustomReactorResponse;
}

export function customReactorResponse(problem: unknown): CustomReactorResponse | undefined {
  if (!isProblem(problem)) return undefined;
  const custom = (problem as Partial<ReactorCustomProblem>).custom;
  if (typeof custom !== 'object' || custom === null) return undefined;
  if (typeof custom.status !== 'number' || !Number.isInteger(custom.status) || custom.status < 200 || custom.status > 599) return undefined;
  return custom;
}
