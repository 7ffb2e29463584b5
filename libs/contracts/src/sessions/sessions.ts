import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { IsOptional, IsString, MinLength } from 'class-validator';
import type { AccessRule } from '../auth/principal';
import { GrantPermissions, GrantRules } from '../auth/grant-properties';

export class CreateSessionResponse {
  @ApiProperty({ description: "the session's API key: no access until the session is authorized" })
  session_key!: string;

  @ApiProperty({ description: 'one-time code the authorizing (private) application sends to POST /sessions/authorize' })
  nonce!: string;

  @ApiProperty({ format: 'date-time', description: 'default: 3 minutes after creation' })
  expires_at!: string;
}

export class AuthorizeSessionRequest {
  @ApiProperty({ example: '5b8c3f0e-6c1d-4c55-9a5b-2f8e4d7c1a90' })
  @IsString({ message: 'is required and must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  nonce!: string;

  @GrantPermissions({ description: 'token permissions the authorizer holds itself (or give rules)', example: ['token:create'] })
  permissions?: string[];

  @GrantRules()
  rules?: AccessRule[];

  @ApiPropertyOptional({ format: 'date-time', description: 'in the future, at most 24 hours after the session was created' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  expires_at?: string;
}
