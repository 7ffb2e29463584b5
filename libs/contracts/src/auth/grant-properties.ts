import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '../openapi/property-docs';
import { IsArray, IsOptional, IsString } from 'class-validator';
import { AccessRuleView } from './access-rule.view';

/** `permissions` of a body that grants access: optional, a list of permission names (what it means is the body's to say). */
export function GrantPermissions(doc: { description?: string; example: string[] }): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ type: [String], ...doc }), IsOptional(), IsArray(), IsString({ each: true }));
}

/** `rules` of a body that grants access: optional, a list of access rules (the services check each rule). */
export function GrantRules(doc: { description?: string } = {}): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ type: () => [AccessRuleView], ...doc }), IsOptional(), IsArray());
}
