import { IsBoolean, IsIn, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { REACTOR_EGRESS_DEFAULTS, type ReactorEgressDefault } from '../reactors/egress-policy';
import { Transform, Type } from 'class-transformer';

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
  @IsOptional()
  @Transform(booleanOrBooleanString)
  @IsBoolean({ message: 'must be a boolean (or "true" / "false")' })
  deduplicate_tokens?: boolean;

  @IsOptional()
  @IsIn(REACTOR_EGRESS_DEFAULTS, { message: `must be one of ${REACTOR_EGRESS_DEFAULTS.join(', ')}` })
  reactor_egress?: ReactorEgressDefault;
}

export class UpdateTenantRequest {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TenantSettingsInput)
  settings?: TenantSettingsInput;
}

export interface TenantView {
  id: string;
  name: string;
  settings: TenantSettings;
  created_at: string;
  modified_at?: string;
}
