import { ApiProperty, ApiPropertyOptional } from './property-docs';
import type { ApiPropertyOptions } from '@nestjs/swagger';

/**
 * Any JSON value (token data, masks, reactor results): an object, an array, a string, a number, a boolean. Written as
 * `anyOf` because @nestjs/swagger would otherwise derive `type: object` from the TypeScript type `unknown`.
 */
export const ANY_JSON_SCHEMA = {
  anyOf: [{ type: 'object' }, { type: 'array', items: {} }, { type: 'string' }, { type: 'number' }, { type: 'boolean' }],
} as const;

type Extra = Omit<ApiPropertyOptions, 'type' | 'anyOf' | 'required'>;

/** A property holding any JSON value. */
export function ApiAnyJson(options: Extra & { required?: boolean } = {}): PropertyDecorator {
  const { required = false, ...rest } = options;
  const decorate = required ? ApiProperty : ApiPropertyOptional;
  return decorate({ ...(rest as object), anyOf: [...ANY_JSON_SCHEMA.anyOf] } as ApiPropertyOptions);
}

/** A map of strings (token `metadata`). */
export function ApiStringMap(options: Extra & { required?: boolean } = {}): PropertyDecorator {
  const { required = false, ...rest } = options;
  const decorate = required ? ApiProperty : ApiPropertyOptional;
  return decorate({ ...(rest as object), type: 'object', additionalProperties: { type: 'string' } } as ApiPropertyOptions);
}
