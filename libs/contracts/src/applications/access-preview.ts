import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { TRANSFORMS, type AccessRule, type Transform } from '../auth/principal';
import { AccessRuleView } from '../auth/access-rule.view';
import { GrantPermissions, GrantRules } from '../auth/grant-properties';
import { RequiredText } from '../validation/text-fields';

/** The grants a session would be authorized with (POST /sessions/authorize): permissions, or rules. */
export class AccessPreviewSessionGrants {
  @GrantPermissions({ example: ['token:read'] })
  permissions?: string[];

  @GrantRules()
  rules?: AccessRule[];
}

/** POST /applications/{id}/access-preview (a Coffer extension): what would this application see of such a token? */
export class AccessPreviewRequest {
  @ApiProperty({ minLength: 1, maxLength: 1000, example: '/pci/high/', description: "the token's container (compared lower-case, as tokens store it)" })
  @RequiredText(1000)
  container!: string;

  @ApiPropertyOptional({ maxLength: 400, description: 'a token id, for rules with an `id` condition' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(400, { message: 'must be at most 400 characters' })
  token_id?: string;

  @ApiPropertyOptional({
    type: () => AccessPreviewSessionGrants,
    description: 'preview a session this application authorizes with these grants (capped by the application) instead of the application itself',
  })
  @IsOptional()
  @IsObject()
  session?: AccessPreviewSessionGrants;
}

export class AccessPreviewDecision {
  @ApiProperty({ example: 'token:read' })
  permission!: string;

  @ApiProperty()
  allowed!: boolean;

  @ApiPropertyOptional({ enum: TRANSFORMS, description: 'what the caller sees of the data when allowed' })
  transform?: Transform;
}

export class AccessPreviewView {
  @ApiProperty({ format: 'uuid' })
  application_id!: string;

  @ApiProperty({ example: '/pci/high/' })
  container!: string;

  @ApiProperty({ enum: ['application', 'session'] })
  subject!: 'application' | 'session';

  @ApiPropertyOptional({ type: () => AccessRuleView, description: "the application's rule that decides for this token (when it has rules)" })
  matched_rule?: AccessRule;

  @ApiProperty({ type: () => [AccessPreviewDecision] })
  decisions!: AccessPreviewDecision[];
}
