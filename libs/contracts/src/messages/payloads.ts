import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { TRACE_ID_PATTERN } from '../envelope';
import type { Principal } from '../auth/principal';

/**
 * The payloads of the NATS subjects (libs/contracts subjects), one class per message shape. Each crosses the bus as
 * the `body` of an RpcEnvelope (or as a plain event). Where the body is an HTTP body, the subject's payload is the
 * HTTP contract class itself (the operation table, operations/operations.ts). Services validate what they cannot trust: the token-service
 * subjects are also called by reactor code through the `svc` bridge, without the gateway.
 */

/** `{id}`: one resource by id (tokens, applications, formulas, reactors). */
export class IdMessage {
  @IsString()
  id!: string;
}

/** `{id, body}`: a write to one resource, the path id next to the HTTP body (PUT, PATCH, react). */
export class IdBodyMessage extends IdMessage {
  @Allow()
  body!: unknown;
}

/** `{query}`: the query string of a list, as parsed (repeated parameters are arrays). */
export class ListQueryMessage {
  @IsObject()
  query!: Record<string, string | string[]>;
}

/** token.tokens.update: `{id, patch}` with patch an RFC 7386 merge patch. */
export class TokenPatchMessage extends IdMessage {
  @Allow()
  patch!: Record<string, unknown>;
}

/** token.tokens.tokenize and detokenize: any JSON; `path` names the field in errors (reactor invocation args). */
export class PayloadMessage {
  @Allow()
  payload!: unknown;

  @IsOptional()
  @IsString()
  path?: string;

  /**
   * tokenize only (reactor-service): every token view of the reply also carries TOKENIZE_RENDERED, the transform
   * token-service rendered it at (a created token: the write reply transform; a deduplicated one: the read
   * transform, or redact for the limited view), so that the caller of a reactor can be shown no more of it.
   */
  @IsOptional()
  @IsBoolean()
  rendered?: boolean;
}

/** The key of a token view's rendered transform in a token.tokens.tokenize reply asked with `rendered: true`. */
export const TOKENIZE_RENDERED = '$rendered';

/**
 * One audit event proxy-service records through token-service (token.audit.record): it has no database of its own.
 * Each member is checked as the column it is written to requires: a malformed event is refused with the message,
 * never left for PostgreSQL to fail on in the middle of a batch.
 */
export class AuditEventMessage {
  @IsOptional()
  @IsUUID()
  actorApplicationId?: string;

  @IsIn(['create', 'read', 'update', 'delete', 'use', 'search', 'invoke', 'proxy'])
  operation!: 'create' | 'read' | 'update' | 'delete' | 'use' | 'search' | 'invoke' | 'proxy';

  /** proxy: one call through the proxy (entityId: the destination's host) */
  @IsIn(['token', 'reactor', 'proxy'])
  entityType!: 'token' | 'reactor' | 'proxy';

  @IsString()
  @MaxLength(2048)
  entityId!: string;

  @IsOptional()
  @Matches(TRACE_ID_PATTERN)
  traceId?: string;

  /** what the act was, `{field: {new}}` as other records' changes (a proxy call: method, status, duration_ms); never data */
  @IsOptional()
  @IsObject()
  changes?: Record<string, { old?: unknown; new?: unknown }>;
}

/** proxy-service sends at most 200 a message (its batches); the bound keeps one message to one modest INSERT */
export const AUDIT_RECORD_MAX_EVENTS = 1000;

export class AuditRecordMessage {
  @IsArray()
  @ArrayMaxSize(AUDIT_RECORD_MAX_EVENTS)
  @ValidateNested({ each: true })
  @Type(() => AuditEventMessage)
  events!: AuditEventMessage[];
}

/** One window of refused authentications the gateway counted (token.audit.refusals). */
export class RefusalWindowMessage {
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  /** sign_in_refused: a console single sign-on answer that failed its checks (state, nonce, signature, audience, expiry) */
  @IsIn(['missing_key', 'invalid_key', 'forbidden', 'sign_in_refused'])
  reason!: 'missing_key' | 'invalid_key' | 'forbidden' | 'sign_in_refused';

  /** the client address as the gateway derived it (TRUST_PROXY), `unknown`, or `*` (too many windows) */
  @IsString()
  @MaxLength(100)
  source!: string;

  /** the window's start (a whole minute), ISO 8601 */
  @IsISO8601()
  windowStart!: string;

  @IsInt()
  @Min(1)
  @Max(100_000_000)
  count!: number;

  /** the first refused request's SVC-TRACE-ID: any trace id the gateway accepts */
  @IsOptional()
  @IsString()
  @Matches(TRACE_ID_PATTERN)
  traceId?: string;
}

export class RefusalsMessage {
  /** a NUL in one window (PostgreSQL cannot store it) makes that window invalid, not the batch */
  static readonly opaqueFields: readonly string[] = ['windows'];

  /**
   * RefusalWindowMessage each, validated one by one by token-service: a window it cannot store is dropped and
   * counted, never the batch (one bad window refused the whole batch, which the gateway then re-sent for ever)
   */
  @IsArray()
  @ArrayMaxSize(10_000)
  windows!: unknown[];
}

/** session.applications.keys.*: the application, and the key for get and delete. */
export class ApplicationKeyMessage {
  @IsString()
  applicationId!: string;

  @IsOptional()
  @IsString()
  keyId?: string;
}

/** session.auth.authenticate: only the SHA-256 of the key crosses the bus, never the key. */
export class AuthenticateMessage {
  @IsString()
  keyHash!: string;
}

/** session.auth.authenticate's reply: the key's principal (null: unknown or expired, a 401); sessions say until when it may be cached. */
export interface AuthenticateReply {
  principal: Principal | null;
  /** the gateway never caches a principal past this instant (sessions) */
  expiresAt?: string;
}

/** A reply that is any JSON value: tokenize and detokenize answer in the shape of the request. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** session.auth.tenant-standing: the tenant of an anonymous proxy call, which carries no key of its own to check. */
export class TenantStandingMessage {
  @IsUUID()
  tenantId!: string;
}

/** session.tenants.get: `internal` asks for what only services may read. */
export class TenantGetMessage {
  @IsOptional()
  @IsBoolean()
  internal?: boolean;
}

/** session.tenants.webhook-secret.get: `signing` asks for every secret currently signing (the dispatcher). */
export class WebhookSecretMessage {
  @IsOptional()
  @IsBoolean()
  signing?: boolean;
}

/** reactor.reactors.result: the reactor and the request id of an asynchronous invocation. */
export class ReactorResultMessage extends IdMessage {
  @IsString()
  requestId!: string;
}

/** events.tenants.settings-changed: a tenant's settings were written (drop what is cached of them). */
export class TenantSettingsChangedEvent {
  @IsString()
  tenantId!: string;
}

/** events.auth.invalidated: cached principals to drop at once. */
export class AuthInvalidatedEvent {
  @IsOptional()
  @IsString()
  tenantId?: string;

  @IsOptional()
  @IsString()
  applicationId?: string;

  /** every key of `tenantId` (an operator act on the tenant) */
  @IsOptional()
  @IsBoolean()
  allKeys?: boolean;

  @IsOptional()
  @IsString()
  sessionId?: string;

  /** a person's membership changed or ended (with tenantId: in that tenant only) */
  @IsOptional()
  @IsString()
  userId?: string;

  /** console sessions that ended (the SHA-256 of their cookies) */
  @IsOptional()
  @IsString({ each: true })
  consoleSessions?: string[];
}

/** Messages without a body (`{}`): the principal of the envelope is the whole request. */
export class EmptyMessage {}
