import { IsBoolean, IsIn, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { REACTOR_EGRESS_DEFAULTS, type ReactorEgressDefault } from '../reactors/egress-policy';
import { Transform, Type } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export interface TenantSettings {
  deduplicate_tokens: boolean;
  /** what reactors without an `egress` list may reach (reactors/egress-policy.ts); shown once set, absent = allow_public */
  reactor_egress?: ReactorEgressDefault;
}

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

export class TenantSettingsInput {
  @ApiPropertyOptional({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }], description: 'a boolean, or "true" / "false" (any case)' })
  @IsOptional()
  @Transform(booleanOrBooleanString)
  @IsBoolean({ message: 'must be a boolean (or "true" / "false")' })
  deduplicate_tokens?: boolean;

  @ApiPropertyOptional({ enum: REACTOR_EGRESS_DEFAULTS, description: 'what reactors without an egress list may reach (default allow_public)' })
  @IsOptional()
  @IsIn(REACTOR_EGRESS_DEFAULTS, { message: `must be one of ${REACTOR_EGRESS_DEFAULTS.join(', ')}` })
  reactor_egress?: ReactorEgressDefault;
}

export class UpdateTenantRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, example: 'Acme' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
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
}

export class TenantView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Acme' })
  name!: string;

  @ApiProperty({ type: () => TenantSettingsView })
  settings!: TenantSettings;

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
