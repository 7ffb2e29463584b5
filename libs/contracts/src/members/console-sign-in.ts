import { IsArray, IsBoolean, IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import type { Principal } from '../auth/principal';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** What the gateway learned from a verified ID token (never the token itself). */
export class VerifiedIdentity {
  @IsString()
  @MaxLength(500)
  issuer!: string;

  @IsString()
  @MaxLength(255)
  subject!: string;

  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @IsBoolean()
  emailVerified!: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  givenName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  familyName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  picture?: string;

  /** authentication methods (RFC 8176: `mfa`, `otp`, `hwk`, `pwd` ...) */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  amr?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(500)
  acr?: string;
}

/**
 * session.console.sign-in (gateway only): a break-glass management key (`keyHash`) or a person (`identity`, from an
 * ID token the gateway verified). `tenantId` picks one of a person's tenants; `invitationTokenHash` accepts an
 * invitation on the way in. The reply carries the new session's cookie value and CSRF token once.
 */
export class ConsoleSignInMessage {
  @IsOptional()
  @Matches(SHA256_HEX)
  keyHash?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => VerifiedIdentity)
  identity?: VerifiedIdentity;

  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @IsOptional()
  @Matches(SHA256_HEX)
  invitationTokenHash?: string;

  /** the client address, for the audit record of a refusal */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  source?: string;
}

export interface ConsoleSignInReply {
  /** the cookie value (shown once; only its SHA-256 is kept) */
  sessionId: string;
  csrf: string;
  principal: Principal;
  /** a person's tenants, for the console's tenant switcher */
  tenants?: { id: string; name: string; role: string }[];
}

/** session.console.authenticate: the SHA-256 of a console session cookie. */
export class ConsoleAuthenticateMessage {
  @Matches(SHA256_HEX)
  idHash!: string;
}

export interface ConsoleAuthenticateReply {
  principal: Principal | null;
  /** SHA-256 hex of the session's CSRF token: the gateway compares the header's hash with it */
  csrfHash?: string;
  /** the gateway never serves the session past this instant (the idle or the absolute end, whichever is first) */
  expiresAt?: string;
}

/** session.console.sign-out: this session, or with `everywhere` every console session of its person (or key). */
export class ConsoleSignOutMessage {
  @Matches(SHA256_HEX)
  idHash!: string;

  @IsOptional()
  @IsBoolean()
  everywhere?: boolean;
}

/** session.invitations.preview: what an invitation link names, before signing in (no secret crosses back). */
export class InvitationLookupMessage {
  @Matches(SHA256_HEX)
  tokenHash!: string;
}
