import { IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { FieldErrors } from '../problem/problem';
import { FORMULA_LIMITS } from './formulas';
import { ApplicationRefField, REACTOR_LIMITS, ReactorRef } from './reactors';
import { EgressField, ReactorEgressInput } from './egress-policy';
import { RequiredText } from '../validation/text-fields';

/** The OpenAPI of a code reactor's `runtime` (POST /reactors, PUT /reactors/{id}). */
export const RUNTIME_PROPERTY = {
  type: 'object',
  additionalProperties: true,
  nullable: true,
  description: 'may name the one runtime: {"image": "node-bt"}',
  example: { image: 'node-bt' },
} as const;

/**
 * Reactors that carry their own code instead of a formula (the mirrored API's current reactors, what
 * `@basis-theory/node-sdk` creates): `{name, code, configuration?, application?, runtime?}`. The code follows the
 * formula code contract (docs/reactors.md) and its limits; there is no configuration contract and no request
 * parameters, so any `args` reach the code (argument rule 1) and `configuration` is any object of scalar values.
 */
export class CodeReactorRequest {
  /** configuration values are secrets, stored encrypted: any string is fine */
  static readonly opaqueFields: readonly string[] = ['configuration'];

  /** what class-validator cannot say: the members of `runtime`, the values of `configuration` */
  static check(plain: Record<string, unknown>, errors: FieldErrors): void {
    if (isPlainObject(plain['runtime'])) checkReactorRuntime(plain['runtime'], errors);
    if (isPlainObject(plain['configuration'])) checkCodeReactorConfiguration(plain['configuration'], errors);
  }

  @ApiProperty({ minLength: 1, maxLength: REACTOR_LIMITS.nameLength, example: 'Hello reactor' })
  @RequiredText(REACTOR_LIMITS.nameLength)
  name!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: FORMULA_LIMITS.codeLength,
    example: 'module.exports = async function (req) { return { raw: { hello: req.args.name } }; };',
  })
  @RequiredText(FORMULA_LIMITS.codeLength)
  code!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    nullable: true,
    description: 'at most 100 entries of string, number or boolean (secrets, stored encrypted)',
  })
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  configuration?: Record<string, unknown> | null;

  @ApplicationRefField()
  application?: ReactorRef | null;

  @ApiPropertyOptional(RUNTIME_PROPERTY)
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  runtime?: Record<string, unknown> | null;

  @EgressField()
  egress?: ReactorEgressInput | null;
}

/** POST /reactors/{id}/react-async: the arguments (and the run's time limit); the result is read back, not delivered. */
export class ReactAsyncRequest {
  static readonly opaqueFields: readonly string[] = ['args'];

  /** There is no callback: `callback_url` belongs to POST /reactors/{id}/react and is refused here, not ignored. */
  static check(plain: Record<string, unknown>, errors: FieldErrors): void {
    for (const field of ['callback_url', 'callbackUrl'])
      if (plain[field] !== undefined)
        errors.add(field, 'is not taken by react-async (poll GET /reactors/{id}/results/{request id}); POST /reactors/{id}/react takes callback_url');
  }

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'arguments, detokenized like those of POST /reactors/{id}/react',
    example: { name: 'world' },
  })
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  args?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: REACTOR_LIMITS.minTimeoutMs, maximum: REACTOR_LIMITS.maxTimeoutMs, default: 10_000 })
  @IsOptional()
  @IsInt({ message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  @Min(REACTOR_LIMITS.minTimeoutMs, { message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  @Max(REACTOR_LIMITS.maxTimeoutMs, { message: `must be an integer between ${REACTOR_LIMITS.minTimeoutMs} and ${REACTOR_LIMITS.maxTimeoutMs}` })
  timeout_ms?: number | null;
}

/** The only runtime image Coffer runs: CommonJS for Node.js 16 in the sandbox (the mirrored API's `node-bt`). */
export const SUPPORTED_RUNTIME_IMAGE = 'node-bt';

/**
 * `runtime` of a code reactor. Coffer has one runtime, so the object may name it (`image: "node-bt"`) and nothing
 * else that would change how the code runs: another image, packages to install or a narrower permission set are
 * refused (400) rather than silently ignored, because code written for them would behave differently here.
 */
export function checkReactorRuntime(runtime: Record<string, unknown>, errors: FieldErrors): void {
  for (const [key, value] of Object.entries(runtime)) {
    if (value === null || value === undefined) continue;
    const path = `runtime.${key}`;
    if (key === 'image') {
      if (value !== SUPPORTED_RUNTIME_IMAGE) errors.add(path, `must be "${SUPPORTED_RUNTIME_IMAGE}" (CommonJS for Node.js 16), the only runtime Coffer runs`);
    } else if (key === 'dependencies' || key === 'resolutions') {
      if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value as object).length > 0)
        errors.add(path, 'packages cannot be installed: code may require only the modules listed in the reactor documentation');
    } else if (key === 'permissions') {
      if (!Array.isArray(value) || value.length > 0)
        errors.add(path, 'is not supported: give the reactor an application holding exactly the permissions its code needs');
    } else errors.add(path, 'is not supported by the node-bt runtime');
  }
}

/** Configuration of a code reactor: no contract, so any names, with string, number or boolean values. */
export function checkCodeReactorConfiguration(configuration: Record<string, unknown>, errors: FieldErrors): void {
  const keys = Object.keys(configuration);
  if (keys.length > 100) errors.add('configuration', 'must have at most 100 entries');
  for (const key of keys) {
    const value = configuration[key];
    if (key === '__proto__') errors.add('configuration', 'must not have an entry named __proto__');
    else if (value !== null && typeof value !== 'string' && typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value)))
      errors.add(`configuration.${key}`, 'must be a string, number or boolean');
  }
}

/** A reactor to create: exactly one of `formula` (formula reactor) or `code` (code reactor); both or neither → 400. */
export function reactorKind(body: Record<string, unknown>, errors: FieldErrors): 'formula' | 'code' {
  const hasFormula = body['formula'] !== undefined && body['formula'] !== null;
  const hasCode = body['code'] !== undefined && body['code'] !== null;
  if (hasFormula && hasCode) {
    errors.add('formula', 'cannot be combined with code: a reactor runs its formula or its own code');
    errors.add('code', 'cannot be combined with formula: a reactor runs its formula or its own code');
  } else if (hasFormula && body['runtime'] !== undefined && body['runtime'] !== null) {
    errors.add('runtime', "cannot be set on a formula reactor: it runs its formula's code");
  } else if (!hasFormula && !hasCode) {
    errors.add('formula', 'or code is required: a reactor runs a formula or its own code');
  }
  // neither: validated as a formula reactor (the original form), whose errors then name every missing field
  return hasCode && !hasFormula ? 'code' : 'formula';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
