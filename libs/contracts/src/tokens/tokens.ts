import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsObject, IsOptional, IsString } from 'class-validator';

/** POST /tokens (spec "Tokens", conventions §5). Deep rules (types, limits, expressions) live in token-service. */
export class CreateTokenRequest {
  @IsOptional()
  @IsString()
  id?: string;

  @IsString({ message: 'is required and must be a string' })
  type!: string;

  @IsDefined({ message: 'is required' })
  data!: unknown;

  @IsOptional()
  mask?: unknown;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  containers?: string[];

  @IsOptional()
  @IsObject()
  metadata?: Record<string, string>;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  search_indexes?: string[];

  @IsOptional()
  @IsString()
  fingerprint_expression?: string;

  @IsOptional()
  @IsBoolean()
  deduplicate_token?: boolean;

  @IsOptional()
  @IsString()
  expires_at?: string;
}

export interface TokenView {
  id: string;
  tenant_id: string;
  type: string;
  data?: unknown;
  mask?: unknown;
  fingerprint?: string;
  fingerprint_expression?: string;
  containers: string[];
  metadata?: Record<string, string>;
  search_indexes?: string[];
  expires_at?: string;
  created_by?: string;
  created_at?: string;
  modified_by?: string;
  modified_at?: string;
}

export interface TokenIdRequest {
  id: string;
}

export interface ListTokensRequest {
  query: Record<string, string | string[]>;
}

export interface UpdateTokenRequest {
  id: string;
  patch: Record<string, unknown>;
}
