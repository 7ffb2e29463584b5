import { IsEmail, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { Transform } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { PageOf } from '../paging/page-of';
import { PageQuery } from '../paging/page-query';
import { ApiResourceStamps, StampedTenantResource } from '../resource-stamps';
import { TenantResource } from '../tenant-resource';

/**
 * The roles of tenant members (docs/members.md has what each may do; libs/auth roles.ts is the table). OWNER is held
 * by exactly one member once the tenant has one, and changes hands only by `PUT /tenants/self/owner`.
 */
export const MEMBER_ROLES = ['OWNER', 'ADMIN', 'DEVELOPER', 'READ_ONLY'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
/** the roles an invitation or a member update may give (OWNER is transferred, never given) */
export const ASSIGNABLE_ROLES = ['ADMIN', 'DEVELOPER', 'READ_ONLY'] as const;
export const DEFAULT_INVITATION_ROLE: MemberRole = 'ADMIN';
/** how long an invitation's link works (and how far a resend extends it) */
export const INVITATION_TTL_HOURS = 72;

export const INVITATION_STATUSES = ['PENDING', 'EXPIRED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

const upperCase = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);
const lowerCase = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class UserView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'jane@example.com' })
  email!: string;

  @ApiPropertyOptional({ example: 'Jane' })
  first_name?: string;

  @ApiPropertyOptional({ example: 'Doe' })
  last_name?: string;

  @ApiPropertyOptional()
  picture?: string;

  @ApiPropertyOptional({ description: "the issuer of the user's identity provider", example: 'https://login.example.com' })
  provider?: string;
}

export class MemberView extends TenantResource {
  @ApiProperty({ type: () => UserView })
  user!: UserView;

  @ApiProperty({ enum: MEMBER_ROLES })
  role!: MemberRole;

  @ApiPropertyOptional({ format: 'uuid', description: 'the user or application that added the member' })
  created_by?: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'the same as created_at (the name some clients read)' })
  created_date?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  modified_by?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  modified_at?: string;
}

export class MemberPage extends PageOf(MemberView) {}

@ApiResourceStamps()
export class InvitationView extends StampedTenantResource {
  @ApiProperty({ example: 'jane@example.com' })
  email!: string;

  @ApiProperty({ enum: ASSIGNABLE_ROLES })
  role!: MemberRole;

  @ApiProperty({ enum: INVITATION_STATUSES })
  status!: InvitationStatus;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;
}

export class InvitationPage extends PageOf(InvitationView) {}

export class RoleView {
  @ApiProperty({ enum: MEMBER_ROLES })
  name!: MemberRole;

  @ApiProperty({ example: 'Manage everything but the owner' })
  description!: string;

  @ApiProperty({ type: [String], description: 'the permissions a member with this role acts with' })
  permissions!: string[];
}

/** POST /tenants/self/invitations */
export class CreateInvitationRequest {
  @ApiProperty({ example: 'jane@example.com', maxLength: 254 })
  @Transform(lowerCase)
  @IsString({ message: 'is required and must be a string' })
  @MaxLength(254, { message: 'must be at most 254 characters' })
  @IsEmail({}, { message: 'must be an email address' })
  email!: string;

  @ApiPropertyOptional({ enum: ASSIGNABLE_ROLES, default: DEFAULT_INVITATION_ROLE })
  @IsOptional()
  @Transform(upperCase)
  @IsIn(ASSIGNABLE_ROLES, { message: `must be one of ${ASSIGNABLE_ROLES.join(', ')}` })
  role?: MemberRole;
}

/** PUT /tenants/self/members/{id} */
export class UpdateMemberRequest {
  @ApiProperty({ enum: ASSIGNABLE_ROLES })
  @Transform(upperCase)
  @IsIn(ASSIGNABLE_ROLES, { message: `must be one of ${ASSIGNABLE_ROLES.join(', ')} (the owner changes by PUT /tenants/self/owner)` })
  role!: MemberRole;
}

/** PUT /tenants/self/owner */
export class TransferOwnerRequest {
  @ApiProperty({ format: 'uuid', description: 'the member who becomes the owner; the former owner becomes ADMIN' })
  @IsUUID('all', { message: 'must be the id of a member' })
  member_id!: string;
}

/** GET /tenants/self/members: repeatable `user_id`, besides paging. */
export class ListMembersQuery extends PageQuery {
  @ApiPropertyOptional({ type: [String], description: 'user ids (repeatable)' })
  user_id?: string | string[];
}

/** GET /tenants/self/invitations: `status`, besides paging. */
export class ListInvitationsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: INVITATION_STATUSES })
  status?: string;
}
