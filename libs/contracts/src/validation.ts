import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { FieldErrors, badRequest } from './problem/problem';
import { findJsonLimitViolation, jsonLimitProblem } from './json-limits';

/**
 * A contract class may name top-level members that are opaque values (reactor `args`, `configuration`: encrypted,
 * never stored as text), exempt from the NUL rule below.
 */
export interface ContractStatics {
  opaqueFields?: readonly string[];
  /**
   * The contract's rules that class-validator cannot express (elements of arrays named by index, rules across
   * members): run on the plain body, their errors reported with the class's own, wherever the class is validated
   * (the gateway's edge and the owning service alike).
   */
  check?(plain: Record<string, unknown>, errors: FieldErrors): void;
}

function collect(errors: ValidationError[], prefix: string, into: FieldErrors): void {
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    for (const message of Object.values(e.constraints ?? {})) into.add(path, message);
    if (e.children?.length) collect(e.children, path, into);
  }
}

/**
 * Validates a plain body against a contract class (used by the gateway pipe and again by the service that owns
 * the resource). Returns the typed instance or throws a 400 listing every bad field by path.
 *
 * First the JSON limits (libs/contracts json-limits): a body nested too deeply or holding a non-finite number is
 * refused before class-transformer (recursive) sees it; a string holding NUL, which PostgreSQL cannot store, is a
 * field error like any other.
 */
export interface ValidateOptions {
  /** drop members the contract class does not declare (the gateway's edge validation) */
  whitelist?: boolean;
}

export function validateContract<T extends object>(
  cls: (new () => T) & ContractStatics,
  plain: unknown,
  extra?: FieldErrors,
  { whitelist = false }: ValidateOptions = {},
): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw badRequest('The request body must be a JSON object');
  }
  const violation = findJsonLimitViolation(plain, { rejectNul: true, nulExempt: cls.opaqueFields });
  if (violation && violation.kind !== 'nul') throw jsonLimitProblem(violation);
  const instance = plainToInstance(cls, plain, { enableImplicitConversion: false });
  const errors = new FieldErrors();
  if (violation) errors.add(violation.path || 'body', violation.message);
  collect(validateSync(instance, { forbidUnknownValues: false, whitelist, validationError: { target: false } }), '', errors);
  if (cls.check) {
    const own = new FieldErrors();
    cls.check(plain as Record<string, unknown>, own);
    errors.merge(own.toRecord());
  }
  if (extra) errors.merge(extra.toRecord());
  errors.throwIfAny();
  return instance;
}

const contractClasses = new WeakMap<object, boolean>();

/** Whether `cls` is a contract class: one that declares class-validator rules (remembered per class). */
export function isContractClass(cls: unknown): cls is new () => object {
  if (typeof cls !== 'function') return false;
  let known = contractClasses.get(cls);
  if (known === undefined) {
    known = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).length > 0;
    contractClasses.set(cls, known);
  }
  return known;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that are UUIDs in the database: anything else cannot exist (404), and must not reach a ::uuid cast (500). */
export function isUuid(v: unknown): v is string {
  return typeof v === 'string' && UUID.test(v);
}
