import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { TRANSFORMS, type AccessRule, type RuleCondition, type Transform } from './principal';

/** One condition of a session's access rule (docs/access-control.md): ANDed with the rule's other conditions. */
export class RuleConditionView implements RuleCondition {
  @ApiProperty({ enum: ['id', 'container'] })
  attribute!: 'id' | 'container';

  @ApiProperty({ enum: ['equals', 'starts_with'] })
  operator!: 'equals' | 'starts_with';

  @ApiProperty({ example: '/pci/' })
  value!: string;
}

/** An access rule (docs/access-control.md): the first matching rule, by ascending priority, decides permission and transform. */
export class AccessRuleView implements AccessRule {
  @ApiPropertyOptional()
  description?: string;

  @ApiProperty({ type: 'integer', example: 1 })
  priority!: number;

  @ApiPropertyOptional({ description: 'a container prefix like /pci/ (or give conditions, sessions only)', example: '/pci/' })
  container?: string;

  @ApiPropertyOptional({ type: () => [RuleConditionView] })
  conditions?: RuleCondition[];

  @ApiProperty({ enum: TRANSFORMS, example: 'mask' })
  transform!: Transform;

  @ApiProperty({ type: [String], example: ['token:read'] })
  permissions!: string[];
}

/** GET /permissions: one permission with the application types that may hold it. */
export class PermissionView {
  @ApiProperty({ example: 'token:read' })
  type!: string;

  @ApiProperty({ example: 'Read tokens' })
  description!: string;

  @ApiProperty({ type: [String], example: ['private'] })
  application_types!: string[];
}
