import { IsArray, IsOptional, IsString, MinLength } from 'class-validator';
import type { AccessRule } from '../auth/principal';

export interface CreateSessionResponse {
  session_key: string;
  nonce: string;
  expires_at: string;
}

export class AuthorizeSessionRequest {
  @IsString()
  @MinLength(1)
  nonce!: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  permissions?: string[];

  @IsOptional()
  @IsArray()
  rules?: AccessRule[];

  @IsOptional()
  @IsString()
  expires_at?: string;
}
