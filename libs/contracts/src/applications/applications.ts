import type { ApplicationKeyMessage, AuthenticateMessage, IdMessage } from '../messages/payloads';
import { ApiProperty, ApiPropertyOptional, OmitType } from '../openapi/property-docs';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { APPLICATION_TYPES, type AccessRule, type ApplicationType } from '../auth/principal';
import { AccessRuleView } from '../auth/access-rule.view';
import { GrantPermissions, GrantRules } from '../auth/grant-properties';
import { PageOf } from '../paging/page-of';
import { ApiResourceStamps, StampedTenantResource } from '../resource-stamps';
import { RequiredText } from '../validation/text-fields';

export class CreateApplicationRequest {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Checkout backend' })
  @RequiredText(200)
  name!: string;

  @ApiProperty({ enum: APPLICATION_TYPES, example: 'private', description: 'cannot change later' })
  @IsIn(APPLICATION_TYPES as unknown as string[], { message: 'must be one of public, private, management' })
  type!: ApplicationType;

  @GrantPermissions({ description: 'permissions for every container (or give rules instead)', example: ['token:create', 'token:read'] })
  permissions?: string[];

  @GrantRules({ description: 'access rules, tried in ascending priority (public and private applications)' })
  rules?: AccessRule[];

  @ApiPropertyOptional({ default: true, description: 'false: the application starts without a key' })
  /** false: the application starts without a key (keys come from POST /applications/{id}/keys); default true */
  @IsOptional()
  @IsBoolean()
  create_key?: boolean;
}

/** PUT /applications/{id}: name and grants; the type cannot change, and no key is made. */
export class UpdateApplicationRequest extends OmitType(CreateApplicationRequest, ['type', 'create_key'] as const) {}

/** One API key of an application. `key` (the secret) appears only in the reply that creates it. */
export class ApplicationKeyView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiPropertyOptional({ description: 'the secret: only in the reply that creates it', example: 'key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3' })
  key?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  created_by?: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

@ApiResourceStamps()
export class ApplicationView extends StampedTenantResource {
  @ApiProperty({ example: 'Checkout backend' })
  name!: string;

  @ApiProperty({ enum: APPLICATION_TYPES })
  type!: ApplicationType;

  @ApiPropertyOptional({ type: [String] })
  permissions?: string[];

  @ApiPropertyOptional({ type: () => [AccessRuleView] })
  rules?: AccessRule[];

  /** only in the replies to create and regenerate */
  @ApiPropertyOptional({ description: 'the API key: only in the replies to create and regenerate' })
  key?: string;

  /** only in the replies to create and regenerate: the key just made, as `POST /applications/{id}/keys` shows it */
  @ApiPropertyOptional({ type: () => [ApplicationKeyView], description: 'only in the replies to create and regenerate' })
  keys?: ApplicationKeyView[];
}

export class ApplicationPage extends PageOf(ApplicationView) {}

/** Most keys one application may hold at a time (another create is a 422). */
export const MAX_KEYS_PER_APPLICATION = 10;

export type ApplicationKeyRequest = ApplicationKeyMessage;

/** `GET /applications` filters: repeatable `id` and `type` (docs/api-reference.md paging besides). */
export const MAX_LIST_FILTER_VALUES = 100;

export type IdRequest = IdMessage;

/** session.auth.authenticate: the gateway sends only the SHA-256 of the key, never the key. */
export type AuthenticateRequest = AuthenticateMessage;
