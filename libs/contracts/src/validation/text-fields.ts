import { applyDecorators } from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';

/**
 * A required, non-empty string of at most `maxLength` characters, said as every request says it: a missing one is told
 * it is required (validateContract keeps only that), an empty or a long one what it breaks.
 */
export function RequiredText(maxLength: number): PropertyDecorator {
  return applyDecorators(
    IsString({ message: 'is required and must be a string' }),
    MinLength(1, { message: 'must not be empty' }),
    MaxLength(maxLength, { message: `must be at most ${maxLength} characters` }),
  );
}
