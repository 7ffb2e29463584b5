import { Allow } from 'class-validator';
import { ApiHideProperty, ApiPropertyOptional, PickType } from '../openapi/property-docs';
import type { FieldErrors } from '../problem/problem';
import type { ContractClass } from '../validation';
import { ApiAnyJson } from '../openapi/json-schema';
import { CodeReactorRequest, RUNTIME_PROPERTY, reactorKind } from './code-reactors';
import { CreateReactorRequest, REACTOR_LIMITS, ReactorRef, UpdateReactorRequest } from './reactors';
import { FORMULA_LIMITS } from './formulas';
import { ReactorEgressInput } from './egress-policy';

/**
 * POST /reactors: a formula reactor ({@link CreateReactorRequest}) or a code reactor ({@link CodeReactorRequest}),
 * exactly one of `formula` and `code`; validated by the class of its shape (both or neither: 400).
 */
export class NewReactorRequest {
  static shapeOf(plain: Record<string, unknown>, errors: FieldErrors): ContractClass {
    return reactorKind(plain, errors) === 'code' ? CodeReactorRequest : CreateReactorRequest;
  }
}

/**
 * PUT /reactors/{id}: the members of both shapes. Which shape applies depends on the stored reactor (a formula
 * reactor requires `configuration` and refuses `code` and `runtime`), which only reactor-service knows: it judges
 * those after its 404. What holds for either is checked here.
 */
export class ReplaceReactorRequest extends PickType(UpdateReactorRequest, ['name', 'application', 'egress'] as const) {
  static readonly opaqueFields: readonly string[] = ['configuration'];

  @ApiAnyJson({ description: 'formula reactor: required, satisfying its contract; code reactor: at most 100 string, number or boolean values' })
  @Allow()
  configuration?: unknown;

  @ApiPropertyOptional({ description: 'code reactor only: its code' })
  @Allow()
  code?: unknown;

  @ApiAnyJson({ description: 'code reactor only: may name the one runtime, {"image": "node-bt"}' })
  @Allow()
  runtime?: unknown;

  /** refused by reactor-service ("cannot be changed"), so kept rather than dropped */
  @ApiHideProperty()
  @Allow()
  formula?: unknown;
}

/**
 * PATCH /reactors/{id} (RFC 7386 merge patch): any of the members of PUT; `null` removes. What is constrained here is
 * the body itself (an object within the JSON limits); the merged reactor is validated by reactor-service exactly
 * like a PUT, so a patch can never store what PUT would refuse.
 */
export class ReactorMergePatch {
  static readonly opaqueFields: readonly string[] = ['configuration'];

  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: REACTOR_LIMITS.nameLength, example: 'Hello reactor' })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: FORMULA_LIMITS.codeLength,
    example: 'module.exports = async function (req) { return { raw: { hello: req.args.name } }; };',
  })
  @Allow()
  code?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    nullable: true,
    description: 'at most 100 entries of string, number or boolean (secrets, stored encrypted)',
  })
  @Allow()
  configuration?: unknown;

  @ApiPropertyOptional({ type: () => ReactorRef, nullable: true })
  @Allow()
  application?: unknown;

  @ApiPropertyOptional(RUNTIME_PROPERTY)
  @Allow()
  runtime?: unknown;

  @ApiPropertyOptional({
    type: () => ReactorEgressInput,
    nullable: true,
    description: 'the hosts its code may reach; absent or null: the tenant default (settings.reactor_egress)',
  })
  @Allow()
  egress?: unknown;

  /** refused by reactor-service ("cannot be changed"), so kept rather than dropped */
  @ApiHideProperty()
  @Allow()
  formula?: unknown;
}
