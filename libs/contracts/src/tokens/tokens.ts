import type { IdMessage, ListQueryMessage, TokenPatchMessage } from '../messages/payloads';
import { ApiHideProperty, ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '../openapi/property-docs';
import { Allow, IsBoolean, IsOptional, IsString } from 'class-validator';
import { FieldErrors } from '../problem/problem';
import { parsePageBody, parsePageSize } from '../pagination';
import { ApiAnyJson, ApiStringMap } from '../openapi/json-schema';
import { PageOf } from '../paging/page-of';
import { CursorPagination, OffsetPagination } from '../paging/page-views';

export const TOKEN_TYPE_NAMES = [
  'token',
  'card',
  'bank',
  'card_number',
  'us_bank_routing_number',
  'us_bank_account_number',
  'social_security_number',
  'employer_id_number',
] as const;

/**
 * POST /tokens (spec "Tokens", docs/tokens.md), and each token request inside a tokenize payload. What the edge checks:
 * a JSON object within the JSON limits, no NUL but in `data` (stored encrypted), members it does not declare dropped.
 * Every field rule (types, limits, expressions, the per-type rules of `data`) lives in token-service, whose
 * validator also judges the token requests nested in a tokenize payload, and the merged result of a merge patch.
 */
export class CreateTokenRequest {
  static readonly opaqueFields: readonly string[] = ['data'];
  /** their keys are the client's (a mask mirrors data): token-service validates them (token-fields.ts) */
  static readonly keyedFields: readonly string[] = ['metadata', 'mask'];

  @ApiPropertyOptional({
    description: '3–400 characters, or an expression over data such as `{{ data | alias_preserve_format: 0, 4 }}`; default: a UUID',
    example: 'order-7d2f-card',
  })
  @Allow()
  id?: string;

  @ApiProperty({ enum: TOKEN_TYPE_NAMES, example: 'card', description: 'decides how data is validated and the defaults of mask, container and search indexes' })
  @Allow()
  type!: string;

  @ApiAnyJson({
    description:
      'required unless token_intent_id is given; at most 256 KiB serialized; validated per type (card: number 13–19 digits passing Luhn, bank: routing number with ABA checksum, …)',
    example: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' },
  })
  @Allow()
  data?: unknown;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "instead of data (and type, which may be omitted or must equal the intent's): a live token intent, whose data becomes the token's; the intent is consumed by the create (docs/token-intents.md)",
    example: '665bf471-d675-4165-9336-4fc9c1a73fad',
  })
  @Allow()
  token_intent_id?: string;

  @ApiAnyJson({ description: "mask expressions mirroring data; default: the type's mask", example: { number: '{{ data.number | reveal_last: 4 }}' } })
  @Allow()
  mask?: unknown;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 1,
    minItems: 1,
    description: 'exactly one container path like /pci/high/ (stored lower-case)',
    example: ['/pci/high/'],
  })
  @Allow()
  containers?: string[];

  @ApiStringMap({ description: 'non-sensitive strings, at most 100 keys', example: { customer: 'c-42' } })
  @Allow()
  metadata?: Record<string, string>;

  @ApiPropertyOptional({ type: [String], maxItems: 10, description: 'expressions over data producing blind search indexes', example: ['{{ data | last4 }}'] })
  @Allow()
  search_indexes?: string[];

  @ApiPropertyOptional({ maxLength: 400, description: 'default `{{ data | stringify }}`', example: '{{ data.number }}' })
  @Allow()
  fingerprint_expression?: string;

  @ApiPropertyOptional({ nullable: true, description: 'return an existing live token of the same type and fingerprint instead of a new one' })
  @Allow()
  deduplicate_token?: boolean;

  @ApiPropertyOptional({
    nullable: true,
    description: 'M/D/YYYY h:mm:ss AM/PM +hh:mm, M/D/YYYY (12 AM UTC) or ISO 8601; must lie in the future',
    example: '2030-01-31T00:00:00Z',
  })
  @Allow()
  expires_at?: string;
}

/**
 * PATCH /tokens/{id} (RFC 7386 merge patch, `application/merge-patch+json`): the create fields but `id` and `type`;
 * `null` removes a key (`expires_at: null` removes the expiry).
 */
export class UpdateTokenPatch extends PartialType(OmitType(CreateTokenRequest, ['id', 'type', 'token_intent_id'] as const)) {
  static readonly opaqueFields: readonly string[] = ['data'];
  static readonly keyedFields: readonly string[] = ['metadata', 'mask'];

  /**
   * A member that is no field of a token is refused, not dropped: a patch that names one means something the
   * token cannot hold. `id` and `type` are members (equal to the token's own they change nothing; token-service
   * refuses a different value, which only it can see).
   */
  static check(plain: Record<string, unknown>, errors: FieldErrors): void {
    for (const key of Object.keys(plain)) if (!TOKEN_PATCH_MEMBERS.has(key)) errors.add(key, 'is not a field that can be updated');
  }

  @ApiHideProperty()
  @Allow()
  id?: unknown;

  @ApiHideProperty()
  @Allow()
  type?: unknown;
}

/** The members of a token merge patch (the fields of POST /tokens). */
export const TOKEN_PATCH_MEMBERS: ReadonlySet<string> = new Set([
  'id',
  'type',
  'data',
  'mask',
  'containers',
  'metadata',
  'search_indexes',
  'fingerprint_expression',
  'deduplicate_token',
  'expires_at',
]);

/** A token as the caller may see it: `data` revealed, masked or absent per the caller's access rules. */
export class TokenView {
  @ApiProperty({ example: 'c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  tenant_id!: string;

  @ApiProperty({ example: 'card' })
  type!: string;

  @ApiAnyJson({
    description: "revealed, masked or (when absent) redacted per the caller's transform",
    example: { number: '############4242', expiration_month: 12, expiration_year: 2030 },
  })
  data?: unknown;

  @ApiAnyJson()
  mask?: unknown;

  @ApiPropertyOptional({ example: 'AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X' })
  fingerprint?: string;

  @ApiPropertyOptional({ example: '{{ data | stringify }}' })
  fingerprint_expression?: string;

  @ApiProperty({ type: [String], example: ['/pci/high/'] })
  containers!: string[];

  @ApiStringMap()
  metadata?: Record<string, string>;

  @ApiPropertyOptional({ type: [String] })
  search_indexes?: string[];

  @ApiPropertyOptional({ format: 'date-time' })
  expires_at?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'the application that created the token' })
  created_by?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  created_at?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  modified_by?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  modified_at?: string;
}

/** GET /tokens: offset pages, or cursor pages with `start` (docs/api-reference.md). */
export class TokenPage extends PageOf(TokenView) {}

/** POST /tokens/search: offset pages. */
export class TokenSearchPage extends PageOf(TokenView, OffsetPagination) {}

/** GET /v2/tokens and POST /v2/tokens/search: cursor pages only. */
export class TokenCursorPage extends PageOf(TokenView, CursorPagination) {}

/** POST /tokens/search (`token:search`). */
export class SearchTokensRequest {
  static readonly problemDetail = 'The search request is invalid';

  /** `query` is required; `page` and `size` as every offset list (docs/api-reference.md) */
  static check(plain: Record<string, unknown>, errors: FieldErrors): void {
    parsePageBody(plain, errors);
    if (typeof plain['query'] !== 'string') errors.add('query', 'is required');
  }

  @ApiProperty({
    description: 'field:value terms (id, type, container, fingerprint, metadata.<key>, data, created_at ranges) joined by AND, OR, NOT and parentheses',
    example: 'metadata.customer:c-42 AND type:card',
  })
  @Allow()
  query!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @Allow()
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, default: 20 })
  @Allow()
  size?: number;
}

/** POST /v2/tokens/search: no query = every searchable token; `start` is `pagination.next` of the previous page. */
export class SearchTokensV2Request {
  static readonly problemDetail = 'The search request is invalid';

  /** `page` belongs to v1 and is refused rather than ignored; a null `size` or `start` (SDKs send it for "not set") is the default */
  static check(plain: Record<string, unknown>, errors: FieldErrors): void {
    if (plain['page'] !== undefined) errors.add('page', 'is not supported by v2 lists: pass pagination.next of the previous page as start');
    if (plain['size'] !== null) parsePageSize(plain['size'], errors, 'body');
    const start = plain['start'];
    if (start !== undefined && start !== null && typeof start !== 'string') errors.add('start', 'must be a string');
    const query = plain['query'];
    if (query !== undefined && query !== null && typeof query !== 'string') errors.add('query', 'must be a string');
  }

  @ApiPropertyOptional({ description: 'the query language of POST /tokens/search', example: 'metadata.customer:c-42 AND type:card' })
  @Allow()
  query?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, default: 20 })
  @Allow()
  size?: number;

  @ApiPropertyOptional({ description: 'pagination.next of the previous page' })
  @Allow()
  start?: string;

  @ApiHideProperty()
  @Allow()
  page?: unknown;
}

/**
 * POST /tokenize (token.tokens.tokenize): `payload` is the HTTP body as given, any JSON; what is constrained is the
 * JSON limits (depth, finite numbers). Token requests inside are judged by token-service like POST /tokens bodies.
 */
export class TokenizeRequest {
  static readonly documentField = 'payload';

  @Allow()
  payload?: unknown;

  /** reactor-service only (a formula's `svc` calls): expressions already rendered. The gateway never sets it. */
  @IsOptional()
  @IsBoolean({ message: 'must be a boolean' })
  rendered?: boolean;
}

/** POST /detokenize (token.tokens.detokenize): `payload` is the HTTP body as given, any JSON, within the JSON limits. */
export class DetokenizeRequest {
  static readonly documentField = 'payload';

  @Allow()
  payload?: unknown;

  /** reactor-service only (invocation args): the field errors are named under. The gateway never sets it. */
  @IsOptional()
  @IsString({ message: 'must be a string' })
  path?: string;
}

/** token.tokens.get / delete */
export type TokenIdRequest = IdMessage;
/** token.tokens.list / list.v2 */
export type ListTokensRequest = ListQueryMessage;
/** token.tokens.update */
export type UpdateTokenRequest = TokenPatchMessage;
