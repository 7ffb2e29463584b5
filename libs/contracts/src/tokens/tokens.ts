import type { IdMessage, ListQueryMessage, TokenPatchMessage } from '../messages/payloads';
import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsObject, IsOptional, IsString } from 'class-validator';
import { ApiAnyJson, ApiStringMap } from '../openapi/json-schema';
import { AnyPagination, CursorPagination, OffsetPagination } from '../paging/page-views';

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

/** POST /tokens (spec "Tokens", docs/tokens.md). Deep rules (types, limits, expressions) live in token-service. */
export class CreateTokenRequest {
  @ApiPropertyOptional({
    description: '3–400 characters, or an expression over data such as `{{ data | alias_preserve_format: 0, 4 }}`; default: a UUID',
    example: 'order-7d2f-card',
  })
  @IsOptional()
  @IsString()
  id?: string;

  @ApiProperty({ enum: TOKEN_TYPE_NAMES, example: 'card', description: 'decides how data is validated and the defaults of mask, container and search indexes' })
  @IsString({ message: 'is required and must be a string' })
  type!: string;

  @ApiAnyJson({
    required: true,
    description: 'at most 256 KiB serialized; validated per type (card: number 13–19 digits passing Luhn, bank: routing number with ABA checksum, …)',
    example: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' },
  })
  @IsDefined({ message: 'is required' })
  data!: unknown;

  @ApiAnyJson({ description: "mask expressions mirroring data; default: the type's mask", example: { number: '{{ data.number | reveal_last: 4 }}' } })
  @IsOptional()
  mask?: unknown;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 1,
    minItems: 1,
    description: 'exactly one container path like /pci/high/ (stored lower-case)',
    example: ['/pci/high/'],
  })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  containers?: string[];

  @ApiStringMap({ description: 'non-sensitive strings, at most 100 keys', example: { customer: 'c-42' } })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, string>;

  @ApiPropertyOptional({ type: [String], maxItems: 10, description: 'expressions over data producing blind search indexes', example: ['{{ data | last4 }}'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  search_indexes?: string[];

  @ApiPropertyOptional({ maxLength: 400, description: 'default `{{ data | stringify }}`', example: '{{ data.number }}' })
  @IsOptional()
  @IsString()
  fingerprint_expression?: string;

  @ApiPropertyOptional({ nullable: true, description: 'return an existing live token of the same type and fingerprint instead of a new one' })
  @IsOptional()
  @IsBoolean()
  deduplicate_token?: boolean;

  @ApiPropertyOptional({
    nullable: true,
    description: 'M/D/YYYY h:mm:ss AM/PM +hh:mm, M/D/YYYY (12 AM UTC) or ISO 8601; must lie in the future',
    example: '2030-01-31T00:00:00Z',
  })
  @IsOptional()
  @IsString()
  expires_at?: string;
}

/**
 * PATCH /tokens/{id} (RFC 7386 merge patch, `application/merge-patch+json`): the create fields but `id` and `type`;
 * `null` removes a key (`expires_at: null` removes the expiry).
 */
export class UpdateTokenPatch extends PartialType(OmitType(CreateTokenRequest, ['id', 'type'] as const)) {}

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
export class TokenPage {
  @ApiProperty({ type: () => AnyPagination })
  pagination!: AnyPagination;

  @ApiProperty({ type: () => [TokenView] })
  data!: TokenView[];
}

/** POST /tokens/search: offset pages. */
export class TokenSearchPage {
  @ApiProperty({ type: () => OffsetPagination })
  pagination!: OffsetPagination;

  @ApiProperty({ type: () => [TokenView] })
  data!: TokenView[];
}

/** GET /v2/tokens and POST /v2/tokens/search: cursor pages only. */
export class TokenCursorPage {
  @ApiProperty({ type: () => CursorPagination })
  pagination!: CursorPagination;

  @ApiProperty({ type: () => [TokenView] })
  data!: TokenView[];
}

/** POST /tokens/search (`token:search`). */
export class SearchTokensRequest {
  @ApiProperty({
    description: 'field:value terms (id, type, container, fingerprint, metadata.<key>, data, created_at ranges) joined by AND, OR, NOT and parentheses',
    example: 'metadata.customer:c-42 AND type:card',
  })
  query!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, default: 20 })
  size?: number;
}

/** POST /v2/tokens/search: no query = every searchable token; `start` is `pagination.next` of the previous page. */
export class SearchTokensV2Request {
  @ApiPropertyOptional({ description: 'the query language of POST /tokens/search', example: 'metadata.customer:c-42 AND type:card' })
  query?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, default: 20 })
  size?: number;

  @ApiPropertyOptional({ description: 'pagination.next of the previous page' })
  start?: string;
}

/** token.tokens.get / delete */
export type TokenIdRequest = IdMessage;
/** token.tokens.list / list.v2 */
export type ListTokensRequest = ListQueryMessage;
/** token.tokens.update */
export type UpdateTokenRequest = TokenPatchMessage;
