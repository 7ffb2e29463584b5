import { IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { APPLICATION_TYPES, type AccessRule, type ApplicationType } from '../auth/principal';

export class CreateApplicationRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @IsIn(APPLICATION_TYPES as unknown as string[], { message: 'must be one of public, private, management' })
  type!: ApplicationType;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  permissions?: string[];

  @IsOptional()
  @IsArray()
  rules?: AccessRule[];

  /** false: the application starts without a key (keys come from POST /applications/{id}/keys); default true */
  @IsOptional()
  @IsBoolean()
  create_key?: boolean;
}

export class UpdateApplicationRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  permissions?: string[];

  @IsOptional()
  @IsArray()
  rules?: AccessRule[];
}

export interface ApplicationView {
  id: string;
  tenant_id: string;
  name: string;
  type: ApplicationType;
  permissions?: string[];
  rules?: AccessRule[];
  /** only in the replies to create and regenerate */
  key?: string;
  /** only in the replies to create and regenerate: the key just made, as `POST /applications/{id}/keys` shows it */
  keys?: ApplicationKeyView[];
  created_by?: string;
  created_at: string;
  modified_by?: string;
  modified_at?: string;
}

/** One API key of an application. `key` (the secret) appears only in the reply that creates it. */
export interface ApplicationKeyView {
  id: string;
  key?: string;
  created_by?: string;
  created_at: string;
}

/** Most keys one application may hold at a time (another create is a 422). */
export const MAX_KEYS_PER_APPLICATION = 10;

export interface ApplicationKeyRequest {
  applicationId: string;
  keyId?: string;
}

/** `GET /applications` filters: repeatable `id` and `type` (conventions §4 paging besides). */
export const MAX_LIST_FILTER_VALUES = 100;

export interface IdRequest {
  id: string;
}

/** session.auth.authenticate: the gateway sends only the SHA-256 of the key, never the key. */
export interface AuthenticateRequest {
  keyHash: string;
}
