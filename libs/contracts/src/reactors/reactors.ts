import type { IdBodyMessage } from '../messages/payloads';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { applyDecorators } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { FieldErrors, isProblem, type Problem } from '../problem/problem';
import { ANY_JSON_SCHEMA, ApiAnyJson } from '../openapi/json-schema';
import { PageOf } from '../paging/page-of';
import { ReactorFormulaView } from './formulas';
import { EgressField, ReactorEgressInput, ReactorEgressView } from './egress-policy';
import { ApiResourceStamps, StampedTenantResource } from '../resource-stamps';
import { RequiredText } from '../validation/text-fields';

export const REACTOR_LIMITS = {
  nameLength: 200,
  /** spec: timeout_ms 10000–210000, default 10000; honoured only for asynchronous invocations */
  minTimeoutMs: 10_000,
  maxTimeoutMs: 210_000,
  /** docs/reactors.md: a synchronous run is bounded at 10 s (then 504) */
  syncTimeoutMs: 10_000,
} as const;

export class ReactorRef {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  id!: string;
}

/** An optional `application` of a body (`{ id }`): the public or private application the code acts as; null: none. */
export function ApplicationRefField(doc: { description?: string } = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: () => ReactorRef, nullable: true, ...doc }),
    IsOptional(),
    IsObject({ message: 'must be an object with an id' }),
    ValidateNested(),
    Type(() => ReactorRef),
  );
}

/** PUT /reactors/{id}: replaces name, configuration and application (absent = none). The formula cannot change. */
export class UpdateReactorRequest {
  /** configuration values are secrets, stored encrypted: any string is fine (validateContract's NUL rule) */
  static readonly opaqueFields: readonly string[] = ['configuration'];

  @ApiProperty({ minLength: 1, maxLength: REACTOR_LIMITS.nameLength, example: 'Charge card' })
  @RequiredText(REACTOR_LIMITS.nameLength)
  name!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "names and values satisfying the formula's configuration contract; secrets, stored encrypted",
    example: { API_KEY: 'sk_test_123' },
  })
  @IsObject({ message: 'is required and must be an object' })
  configuration!: Record<string, unknown>;

  @ApplicationRefField({ description: 'a public or private application the `svc` client acts as' })
  application?: ReactorRef | null;

  /** The hosts its code may reach (egress-policy.ts); absent or null: the tenant's default. */
  @EgressField()
  egress?: ReactorEgressInput | null;
}

/** POST /reactors: the same fields plus the formula. `configuration` must satisfy its contract (reactor-service). */
export class CreateReactorRequest extends UpdateReactorRequest {
  @ApiProperty({ type: () => ReactorRef, description: 'the formula to configure' })
  @IsObject({ message: 'is required and must be an object with an id' })
  @ValidateNested()
  @Type(() => ReactorRef)
  formula!: ReactorRef;
}

/** camelCase spellings clients of the mirrored service send (its JS SDK passes the react body through as written). */
const REACT_ALIASES = { callbackUrl: 'callback_url', timeoutMs: 'timeout_ms' } as const;

/** POST /reactors/{id}/react */
export class ReactRequest {
  /** args reach the formula (and are stored encrypted for asynchronous runs): any string is fine */
  static readonly opaqueFields: readonly string[] = ['args'];

  /**
   * `callbackUrl` / `timeoutMs` are read as `callback_url` / `timeout_ms`: never dropped (a dropped callbackUrl would
   * silently run the call synchronously). Both spellings with different values are a 400 naming both.
   */
  static normalize(plain: Record<string, unknown>, errors: FieldErrors): Record<string, unknown> {
    if (!Object.keys(REACT_ALIASES).some((alias) => Object.prototype.hasOwnProperty.call(plain, alias))) return plain;
    const out: Record<string, unknown> = { ...plain };
    for (const [alias, field] of Object.entries(REACT_ALIASES)) {
      if (!Object.prototype.hasOwnProperty.call(out, alias)) continue;
      const value = out[alias];
      delete out[alias];
      if (Object.prototype.hasOwnProperty.call(out, field) && !isDeepStrictEqual(out[field], value)) {
        const message = `${alias} and ${field} are the same field: give one, or the same value in both`;
        errors.add(field, message).add(alias, message);
      } else out[field] = value;
    }
    return out;
  }

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'arguments; values written `{{ <token id> }}` are detokenized first (at most 100 tokens)',
    example: { card: '{{ 3c5d0a1e-8d2f-4a55-8f0e-8b6a4c113d3b }}', amount: 1200 },
  })
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  args?: Record<string, unknown> | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'makes the invocation asynchronous (202): the result is POSTed there, signed (Standard Webhooks)',
  })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  callback_url?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: REACTOR_LIMITS.minTimeoutMs,
    maximum: REACTOR_LIMITS.maxTimeoutMs,
    default: 10_000,
    description: 'honoured for asynchronous runs only',
  })
  @IsOptional()
  @IsInt({ message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  @Min(REACTOR_LIMITS.minTimeoutMs, { message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  @Max(REACTOR_LIMITS.maxTimeoutMs, { message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  timeout_ms?: number | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    default: false,
    description:
      "Coffer extension, synchronous runs only: the formula's console output in `logs` of the answer (or of the problem when it fails); at most 200 lines and 64 KiB; never stored",
  })
  @IsOptional()
  @IsBoolean({ message: 'must be a boolean' })
  capture_logs?: boolean | null;
}

@ApiResourceStamps()
export class ReactorView extends StampedTenantResource {
  @ApiProperty({ example: 'Charge card' })
  name!: string;

  /** formula reactors; a code reactor has `code` (and `runtime` when it was given) instead */
  @ApiPropertyOptional({ type: () => ReactorFormulaView, description: 'formula reactors' })
  formula?: ReactorFormulaView;

  @ApiPropertyOptional({ description: 'code reactors: the CommonJS module' })
  code?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'code reactors, when given' })
  runtime?: Record<string, unknown>;

  @ApiPropertyOptional({ type: () => ReactorRef })
  application?: { id: string };

  @ApiProperty({ type: 'object', additionalProperties: true })
  configuration!: Record<string, unknown>;

  @ApiPropertyOptional({ type: () => ReactorEgressView, description: 'the hosts its code may reach; absent: the tenant default' })
  egress?: ReactorEgressView;
}

export class ReactorPage extends PageOf(ReactorView) {}

/** The Reactor Response of a synchronous invocation. */
export class ReactResponse {
  @ApiAnyJson({ description: 'the tokens created from the `tokenize` part of the result (as POST /tokenize answers)' })
  tokens?: unknown;

  @ApiAnyJson({ description: 'the `raw` part of the result, as returned', example: { charged: true } })
  raw?: unknown;

  @ApiPropertyOptional({ type: [String], description: "with `capture_logs`: the formula's console output, one line per call (`[log] …`)" })
  logs?: string[];
}

/** 202 of POST /reactors/{id}/react with `callback_url`: accepted, not run yet. */
export class ReactAccepted {
  @ApiProperty({ format: 'uuid', description: 'the request id: GET /reactors/{id}/results/{request id}' })
  id!: string;

  @ApiProperty({ enum: ['pending'] })
  status!: 'pending';
}

/** 202 of POST /reactors/{id}/react-async. `asyncReactorRequestId` is the name the mirrored service's SDK reads. */
export class ReactAsyncAccepted extends ReactAccepted {
  @ApiProperty({ format: 'uuid' })
  asyncReactorRequestId!: string;
}

/** GET /reactors/{id}/results/{request id}. */
export class ReactorJobResultView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({
    enum: ['pending', 'running', 'succeeded', 'failed', 'completed'],
    description: 'callback_url invocations: pending | running | succeeded | failed; react-async: pending | completed | failed',
  })
  status!: string;

  @ApiPropertyOptional({ ...ANY_JSON_SCHEMA, description: 'the Reactor Response, once succeeded or completed' } as object)
  result?: unknown;

  @ApiPropertyOptional({ ...ANY_JSON_SCHEMA, description: 'the problem document, once failed' } as object)
  error?: unknown;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiPropertyOptional({ format: 'date-time' })
  completed_at?: string;
}

/** reactor.*.update and reactor.reactors.react carry the path id next to the HTTP body. */
export type ReactorBodyRequest = IdBodyMessage;

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
