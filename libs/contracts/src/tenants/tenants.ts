import { IsBoolean, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';

export interface TenantSettings {
  deduplicate_tokens: boolean;
}

export const DEFAULT_TENANT_SETTINGS: TenantSettings = { deduplicate_tokens: false };

export class TenantSettingsInput {
  @IsOptional()
  @IsBoolean()
  deduplicate_tokens?: boolean;
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
