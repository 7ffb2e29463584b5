import { IsArray, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
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
  created_by?: string;
  created_at: string;
  modified_by?: string;
  modified_at?: string;
}

export interface IdRequest {
  id: string;
}

/** session.auth.authenticate: the gateway sends only the SHA-256 of the key, never the key. */
export interface AuthenticateRequest {
  keyHash: string;
}
