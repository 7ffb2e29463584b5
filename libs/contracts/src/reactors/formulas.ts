import { Allow, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { FieldErrors } from '../problem/problem';
import { PageOf } from '../paging/page-of';
import { EgressValidation, ReactorEgressInput, ReactorEgressView } from './egress-policy';
import { ApiResourceStamps, ResourceStamps } from '../resource-stamps';
import { RequiredText } from '../validation/text-fields';

/** Reactor formulas (spec "Reactor Formula", docs/reactors.md). */
export const FORMULA_TYPES = ['official', 'private'] as const;
export type FormulaType = (typeof FORMULA_TYPES)[number];

export const FORMULA_STATUSES = ['verified', 'coming_soon'] as const;
export type FormulaStatus = (typeof FORMULA_STATUSES)[number];

export const PARAMETER_TYPES = ['string', 'boolean', 'number'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export const FORMULA_LIMITS = {
  nameLength: 200,
  codeLength: 50_000,
  configurationElements: 25,
  requestParameters: 25,
} as const;

/**
 * docs/reactors.md: request-parameter names; dots denote nesting (`card.number`). Two characters at least, by design:
 * the pattern is part of the API's contract, so a one-character name is a 400 as documented.
 */
export const PARAMETER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]$/;
/** spec: a base64 data URL of image/png, image/jpg or image/jpeg. */
export const ICON_DATA_URL = /^data:image\/(png|jpg|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/;

/** A property name that would re-prototype a plain object when assigned: never a configuration or parameter name. */
const RESERVED_NAMES = new Set(['__proto__']);

export class FormulaConfigurationElement {
  @ApiProperty({ description: 'no dots: nested configuration names are not supported', example: 'API_KEY' })
  name!: string;

  @ApiPropertyOptional()
  description?: string;

  @ApiProperty({ enum: PARAMETER_TYPES, example: 'string' })
  type!: ParameterType;
}

export class FormulaRequestParameter {
  @ApiProperty({ pattern: PARAMETER_NAME.source, description: 'dots denote nesting (card.number)', example: 'card.number' })
  name!: string;

  @ApiPropertyOptional()
  description?: string;

  @ApiProperty({ enum: PARAMETER_TYPES, example: 'string' })
  type!: ParameterType;

  @ApiProperty({ default: false, description: 'request: optional, default false; always present in replies' })
  optional!: boolean;
}

/** The fields a tenant's formula and an operator's catalog formula share, with the same rules. */
abstract class FormulaFields {
  @ApiProperty({ minLength: 1, maxLength: FORMULA_LIMITS.nameLength, example: 'Charge a card' })
  @RequiredText(FORMULA_LIMITS.nameLength)
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'a base64 data URL of image/png, image/jpg or image/jpeg' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Matches(ICON_DATA_URL, { message: 'must be a base64 data URL of type image/png, image/jpg or image/jpeg' })
  icon?: string | null;

  @ApiProperty({
    minLength: 1,
    maxLength: FORMULA_LIMITS.codeLength,
    description: 'a CommonJS module for Node.js 16 exporting one async function (req) => ({raw?, tokenize?})',
    example: 'module.exports = async function (req) { return { raw: { ok: true } }; };',
  })
  @RequiredText(FORMULA_LIMITS.codeLength)
  code!: string;

  /** checked element by element by checkFormulaElements (ReactorFormulaRequest.check), so errors name the index */
  @ApiPropertyOptional({
    type: () => [FormulaConfigurationElement],
    maxItems: FORMULA_LIMITS.configurationElements,
    nullable: true,
    description: 'the configuration contract of every reactor made from the formula; default []',
  })
  @Allow()
  configuration?: unknown;

  @ApiPropertyOptional({
    type: () => [FormulaRequestParameter],
    maxItems: FORMULA_LIMITS.requestParameters,
    nullable: true,
    description: 'an optional contract for `args`; default []',
  })
  @Allow()
  request_parameters?: unknown;
}

/**
 * POST and PUT /reactor-formulas. Only `private` formulas are created through the API; `status` is set by the
 * server. `configuration` and `request_parameters` are checked element by element by {@link checkFormulaElements}
 * (so errors name `configuration[0].name`).
 */
export class ReactorFormulaRequest extends FormulaFields {
  /** `configuration` and `request_parameters`, element by element (errors name `configuration[0].name`) */
  static check(plain: Record<string, unknown>, errors: FieldErrors): void {
    checkFormulaElements(plain, errors);
  }

  @ApiProperty({ enum: ['private'], description: 'official formulas are provisioned by the operator' })
  @IsIn(['private'], { message: 'must be "private" (official formulas are provisioned by the operator)' })
  type!: string;

  /** The hosts its code may reach, for reactors of it without a list of their own (egress-policy.ts). */
  @ApiPropertyOptional({ type: () => ReactorEgressInput, nullable: true, description: "hosts its reactors' code may reach, unless a reactor lists its own" })
  @EgressValidation()
  egress?: ReactorEgressInput | null;
}

/** An official formula of the operator's catalog (admin CLI `formulas import`); same rules, plus `status`. */
export class OfficialFormulaDefinition extends FormulaFields {
  @IsIn(FORMULA_STATUSES as unknown as string[], { message: 'must be verified or coming_soon' })
  status!: FormulaStatus;

  /** The hosts the formula's code may reach (`{"allow": []}`: none), for its reactors without a list of their own. */
  @EgressValidation()
  egress?: ReactorEgressInput | null;
}

@ApiResourceStamps()
export class ReactorFormulaView extends ResourceStamps {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Charge a card' })
  name!: string;

  @ApiPropertyOptional()
  description?: string;

  @ApiProperty({ enum: FORMULA_TYPES })
  type!: FormulaType;

  @ApiProperty({ enum: FORMULA_STATUSES })
  status!: FormulaStatus;

  @ApiPropertyOptional()
  icon?: string;

  @ApiProperty()
  code!: string;

  @ApiProperty({ type: () => [FormulaConfigurationElement] })
  configuration!: FormulaConfigurationElement[];

  @ApiProperty({ type: () => [FormulaRequestParameter] })
  request_parameters!: FormulaRequestParameter[];

  @ApiPropertyOptional({ type: () => ReactorEgressView, description: 'the hosts its code may reach; absent: the tenant default' })
  egress?: ReactorEgressView;
}

export class ReactorFormulaPage extends PageOf(ReactorFormulaView) {}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function elementList(value: unknown, field: string, max: number, errors: FieldErrors): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    errors.add(field, 'must be an array');
    return [];
  }
  if (value.length > max) errors.add(field, `must contain at most ${max} elements`);
  return value;
}

function commonElement(
  el: unknown,
  path: string,
  errors: FieldErrors,
  checkName: (name: string, at: string) => void,
): { name?: string; description?: string; type?: ParameterType } | null {
  if (!isRecord(el)) {
    errors.add(path, 'must be an object');
    return null;
  }
  const out: { name?: string; description?: string; type?: ParameterType } = {};
  const name = el['name'];
  if (typeof name !== 'string' || name === '') errors.add(`${path}.name`, 'is required and must be a string');
  else {
    checkName(name, `${path}.name`);
    out.name = name;
  }
  const description = el['description'];
  if (description !== undefined && description !== null) {
    if (typeof description !== 'string') errors.add(`${path}.description`, 'must be a string');
    else out.description = description;
  }
  const type = el['type'];
  if (typeof type !== 'string' || !(PARAMETER_TYPES as readonly string[]).includes(type)) errors.add(`${path}.type`, 'must be one of string, boolean, number');
  else out.type = type as ParameterType;
  return out;
}

/**
 * Validates and normalizes a formula's `configuration` and `request_parameters` (docs/reactors.md): at most 25 of
 * each, names unique per array, configuration names without dots, parameter names per {@link PARAMETER_NAME} with no
 * empty segment, and no parameter nested under another parameter (a scalar cannot have children).
 */
export function checkFormulaElements(
  body: Record<string, unknown>,
  errors: FieldErrors,
): { configuration: FormulaConfigurationElement[]; request_parameters: FormulaRequestParameter[] } {
  const configuration: FormulaConfigurationElement[] = [];
  const seenConfig = new Map<string, number>();
  elementList(body['configuration'], 'configuration', FORMULA_LIMITS.configurationElements, errors).forEach((el, i) => {
    const path = `configuration[${i}]`;
    const out = commonElement(el, path, errors, (name, at) => {
      if (name.includes('.')) errors.add(at, 'must not contain dots: nested configuration names are not supported');
      if (RESERVED_NAMES.has(name)) errors.add(at, 'is a reserved name');
      if (seenConfig.has(name)) errors.add(at, `duplicates configuration[${seenConfig.get(name)}].name`);
      else seenConfig.set(name, i);
    });
    if (out?.name !== undefined && out.type !== undefined)
      configuration.push({ name: out.name, ...(out.description !== undefined ? { description: out.description } : {}), type: out.type });
  });

  const request_parameters: FormulaRequestParameter[] = [];
  const seenParams = new Map<string, number>();
  elementList(body['request_parameters'], 'request_parameters', FORMULA_LIMITS.requestParameters, errors).forEach((el, i) => {
    const path = `request_parameters[${i}]`;
    const out = commonElement(el, path, errors, (name, at) => {
      if (!PARAMETER_NAME.test(name)) errors.add(at, `must match ${PARAMETER_NAME.source} (dots separate nested names)`);
      else if (name.split('.').some((s) => s === '')) errors.add(at, 'must not contain an empty segment');
      if (name.split('.').some((s) => RESERVED_NAMES.has(s))) errors.add(at, 'uses a reserved name');
      if (seenParams.has(name)) errors.add(at, `duplicates request_parameters[${seenParams.get(name)}].name`);
      else seenParams.set(name, i);
    });
    if (!out) return;
    let optional = false;
    const given = (el as Record<string, unknown>)['optional'];
    if (given !== undefined && given !== null) {
      if (typeof given !== 'boolean') errors.add(`${path}.optional`, 'must be a boolean');
      else optional = given;
    }
    if (out.name !== undefined && out.type !== undefined)
      request_parameters.push({
        name: out.name,
        ...(out.description !== undefined ? { description: out.description } : {}),
        type: out.type,
        optional,
      });
  });
  // `a` and `a.b` cannot both be declared: `a` would have to be a scalar and an object at once.
  for (const [name, i] of seenParams) {
    const segments = name.split('.');
    for (let n = 1; n < segments.length; n++) {
      const parent = segments.slice(0, n).join('.');
      const j = seenParams.get(parent);
      if (j !== undefined)
        errors.add(`request_parameters[${i}].name`, `is nested under request_parameters[${j}].name: a typed parameter cannot have nested parameters`);
    }
  }
  return { configuration, request_parameters };
}
