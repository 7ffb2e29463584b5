import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { REACTOR_EGRESS_DEFAULTS, type ReactorEgressDefault } from '../reactors/egress-policy';
import { Transform, Type } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';

export interface TenantSettings {
  deduplicate_tokens: boolean;
  /** what reactors without an `egress` list may reach (reactors/egress-policy.ts); shown once set, absent = allow_public */
  reactor_egress?: ReactorEgressDefault;
  /** the origins whose pages may frame the tenant's Elements fields (CSP frame-ancestors); absent or empty: any origin */
  elements_allowed_origins?: string[];
  /** whether a management or private key may sign in to the console (break-glass); shown once set, absent = true */
  console_key_sign_in?: boolean;
  /** whether people must sign in to the console with a second factor (the ID token's amr); shown once set, absent = false */
  console_require_mfa?: boolean;
}

/** An origin a merchant page is served from: scheme, host, optional port; no path, no trailing slash. */
export const ELEMENTS_ORIGIN_PATTERN = /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;
export const ELEMENTS_MAX_ALLOWED_ORIGINS = 50;

/**
 * A list of origins arrives as an array or, from clients that type settings as a string map, as one comma-separated
 * string; an empty string or array clears it.
 */
const originListOrCommaString = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o.length > 0)
    : value;

export const DEFAULT_TENANT_SETTINGS: TenantSettings = { deduplicate_tokens: false };

/**
 * Settings arrive as booleans or, from clients that type settings as a string map (the mirrored service's generated
 * SDK), as "true" / "false" (any case). Anything else stays as given and fails @IsBoolean.
 */
const booleanOrBooleanString = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  return v === 'true' ? true : v === 'false' ? false : value;
};

/** A boolean setting (see booleanOrBooleanString), optional, documented with `description`. */
function BooleanSetting(description: string): PropertyDecorator {
  // applied in the order TypeScript applies stacked decorators: the one written last first
  const rules = [
    IsBoolean({ message: 'must be a boolean (or "true" / "false")' }),
    Transform(booleanOrBooleanString),
    IsOptional(),
    ApiPropertyOptional({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }], description }),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

export class TenantSettingsInput {
  @BooleanSetting('a boolean, or "true" / "false" (any case)')
  deduplicate_tokens?: boolean;

  @ApiPropertyOptional({ enum: REACTOR_EGRESS_DEFAULTS, description: 'what reactors without an egress list may reach (default allow_public)' })
  @IsOptional()
  @IsIn(REACTOR_EGRESS_DEFAULTS, { message: `must be one of ${REACTOR_EGRESS_DEFAULTS.join(', ')}` })
  reactor_egress?: ReactorEgressDefault;

  @ApiPropertyOptional({
    oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }],
    description: 'origins whose pages may frame the Elements fields (an array, or one comma-separated string); empty: any origin',
    example: ['https://shop.example.com'],
  })
  @IsOptional()
  @Transform(originListOrCommaString)
  @IsArray({ message: 'must be an array of origins (or one comma-separated string)' })
  @ArrayMaxSize(ELEMENTS_MAX_ALLOWED_ORIGINS, { message: `must hold at most ${ELEMENTS_MAX_ALLOWED_ORIGINS} origins` })
  @IsString({ each: true, message: 'each entry must be an origin like https://shop.example.com' })
  @MaxLength(300, { each: true, message: 'each entry must be at most 300 characters' })
  @Matches(ELEMENTS_ORIGIN_PATTERN, {
    each: true,
    message: 'each entry must be an origin like https://shop.example.com (scheme, host, optional port; no path)',
  })
  elements_allowed_origins?: string[];

  @BooleanSetting('whether a management or private key may sign in to the console (default true); false: people sign in with single sign-on only')
  console_key_sign_in?: boolean;

  @BooleanSetting('whether people must sign in to the console with a second factor (default false)')
  console_require_mfa?: boolean;
}

export class UpdateTenantRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, example: 'Acme' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  name?: string;

  @ApiPropertyOptional({ type: () => TenantSettingsInput })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TenantSettingsInput)
  settings?: TenantSettingsInput;
}

export class TenantSettingsView implements TenantSettings {
  @ApiProperty({ description: 'deduplicate every token create (as if deduplicate_token were true)', example: false })
  deduplicate_tokens!: boolean;

  @ApiPropertyOptional({ enum: REACTOR_EGRESS_DEFAULTS, description: 'shown once set; absent: allow_public' })
  reactor_egress?: ReactorEgressDefault;

  @ApiPropertyOptional({ type: [String], description: 'shown once set; absent or empty: any origin may frame the Elements fields' })
  elements_allowed_origins?: string[];

  @ApiPropertyOptional({ description: 'shown once set; absent: true (a management or private key may sign in to the console)' })
  console_key_sign_in?: boolean;

  @ApiPropertyOptional({ description: 'shown once set; absent: false (people need no second factor to sign in to the console)' })
  console_require_mfa?: boolean;
}

export class TenantView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Acme' })
  name!: string;

  @ApiProperty({ type: () => TenantSettingsView })
  settings!: TenantSettings;

  @ApiPropertyOptional({ format: 'uuid', description: "the user id of the tenant's owner (absent until someone owns it)" })
  owner_id?: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiPropertyOptional({ format: 'date-time' })
  modified_at?: string;
}

/** GET /tenants/self/webhook-secret and its rotation: the key of the Standard Webhooks signatures. */
export class WebhookSecretView {
  @ApiProperty({
    description: 'whsec_ followed by the base64 of 32 random bytes (the HMAC key is the decoded bytes)',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}
