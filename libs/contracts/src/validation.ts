import { plainToInstance } from 'class-transformer';
import { ValidationTypes, getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { FieldErrors, badRequest } from './problem/problem';
import { findJsonLimitViolation, jsonLimitProblem } from './json-limits';

/**
 * A contract class may name top-level members that are opaque values (reactor `args`, `configuration`: encrypted,
 * never stored as text), exempt from the NUL rule below.
 */
export interface ContractStatics {
  opaqueFields?: readonly string[];
  /**
   * Top-level members whose keys are the client's own (token metadata, a mask mirroring data): kept as given like
   * opaque ones, never copied by class-transformer, which drops keys named like members of Object.prototype
   * (`toString`, `valueOf`) without a word; unlike opaque ones they are checked as stored text (NUL, unpaired
   * surrogates, reserved keys).
   */
  keyedFields?: readonly string[];
  /**
   * The contract's rules that class-validator cannot express (elements of arrays named by index, rules across
   * members): run on the plain body, their errors reported with the class's own, wherever the class is validated
   * (the gateway's edge and the owning service alike).
   */
  check?(plain: Record<string, unknown>, errors: FieldErrors): void;
  /**
   * Spellings the contract takes for its own members (the react body's `callbackUrl`), rewritten before anything
   * else so that whitelisting never drops a value the caller meant; may add errors (both spellings, different values).
   */
  normalize?(plain: Record<string, unknown>, errors: FieldErrors): Record<string, unknown>;
  /**
   * A body of several shapes (a reactor from a formula or from its own code): the contract class that validates
   * this one. Its errors are reported with those of the chosen class.
   */
  shapeOf?(plain: Record<string, unknown>, errors: FieldErrors): ContractClass;
  /**
   * The member that carries a document of any JSON (tokenize and detokenize payloads): its JSON limits are checked
   * with paths relative to the document itself, it may hold NUL (it is never stored as text) and it is kept as given.
   */
  documentField?: string;
  /** the `detail` of the 400 (default "The request is invalid") */
  problemDetail?: string;
}

/** A class validated by {@link validateContract}. */
export type ContractClass<T extends object = object> = (new () => T) & ContractStatics;

function collect(errors: ValidationError[], prefix: string, into: FieldErrors): void {
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    // a rule without a message of ours speaks class-validator's English, "name must be a string": the path says whose
    for (const message of messagesOf(e)) into.add(path, message.startsWith(`${e.property} `) ? message.slice(e.property.length + 1) : message);
    if (e.children?.length) collect(e.children, path, into);
  }
}

/**
 * The rules that say what kind of value a member must be, by class-validator's names. Rules on the value itself (a set
 * of allowed values, a UUID, a length) are not among them: a value of the right kind hears each of those it breaks.
 */
const WHAT_IT_MUST_BE = new Set(['isDefined', 'isString', 'isBoolean', 'isInt', 'isNumber', 'isObject', 'isArray']);

/**
 * A member whose kind is wrong (missing, null, a number for a string) is told what it must be, not also that it is too
 * short or too long: class-validator runs every rule, so a missing `name` would otherwise read "must be at most 200
 * characters" beside "is required". A value of the right kind hears every rule it breaks.
 */
function messagesOf(e: ValidationError): string[] {
  const failed = Object.entries(e.constraints ?? {});
  const kind = failed.filter(([rule]) => WHAT_IT_MUST_BE.has(rule));
  return (kind.length ? kind : failed).map(([, message]) => message);
}

/**
 * Validates a plain body against a contract class (used by the gateway pipe and again by the service that owns
 * the resource). Returns the typed instance or throws a 400 listing every bad field by path.
 *
 * First the JSON limits (libs/contracts json-limits): a body nested too deeply, holding a non-finite number, text that
 * is not Unicode or a reserved key is refused before class-transformer (recursive) sees it; a string holding NUL,
 * which PostgreSQL cannot store, is a field error like any other.
 */
export interface ValidateOptions {
  /** drop members the contract class does not declare (the gateway's edge validation) */
  whitelist?: boolean;
}

export function validateContract<T extends object>(cls: ContractClass<T>, plain: unknown, extra?: FieldErrors, options: ValidateOptions = {}): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw badRequest('The request body must be a JSON object');
  }
  let body = plain as Record<string, unknown>;
  const errors = new FieldErrors();
  if (cls.normalize) body = cls.normalize(body, errors);
  if (cls.shapeOf) {
    const shape = cls.shapeOf(body, errors) as ContractClass<T>;
    if (extra) errors.merge(extra.toRecord());
    return validateContract(shape, body, errors, options);
  }
  const document = cls.documentField;
  if (document !== undefined) {
    const inDocument = findJsonLimitViolation(body[document]);
    if (inDocument) throw jsonLimitProblem(inDocument);
  }
  // opaque and keyed members (and the document) are validated and kept as given: class-transformer never copies them
  const raw = [...(cls.opaqueFields ?? []), ...(cls.keyedFields ?? []), ...(document === undefined ? [] : [document])].filter((f) =>
    Object.prototype.hasOwnProperty.call(body, f),
  );
  const rest = raw.length ? Object.fromEntries(Object.entries(body).filter(([k]) => !raw.includes(k))) : body;
  // no member may use the reserved keys (class-transformer skips `constructor` and `__proto__`, and trips on a
  // `constructor` that is not a function; a merge patch cannot apply them) but inside the opaque ones, kept as given
  const opaque = Object.assign({}, ...raw.filter((f) => f !== document).map((f) => ({ [f]: body[f] })));
  const firstViolation = (passOverNul: boolean) =>
    findJsonLimitViolation(rest, { rejectNul: true, rejectReservedKeys: true, passOverNul }) ??
    findJsonLimitViolation(opaque, { rejectNul: true, rejectReservedKeys: true, nulExempt: cls.opaqueFields, passOverNul });
  const found = firstViolation(false);
  // a NUL is a field error, reported with the class's own; whatever the walk would have met after it still refuses
  // the body before class-transformer copies it (a reserved key makes it throw, a lone surrogate the validators)
  const refusal = found?.kind === 'nul' ? firstViolation(true) : found;
  if (refusal) throw jsonLimitProblem(refusal);
  const instance = plainToInstance(cls, rest, { enableImplicitConversion: false });
  for (const f of raw) (instance as Record<string, unknown>)[f] = body[f];
  if (found) errors.add(found.path || 'body', found.message);
  const permissive = permissiveMembers(cls);
  if (!permissive)
    collect(validateSync(instance, { forbidUnknownValues: false, whitelist: options.whitelist ?? false, validationError: { target: false } }), '', errors);
  else if (options.whitelist) for (const key of Object.keys(instance)) if (!permissive.has(key)) delete (instance as Record<string, unknown>)[key];
  if (cls.check) {
    const own = new FieldErrors();
    cls.check(body, own);
    errors.merge(own.toRecord());
  }
  if (extra) errors.merge(extra.toRecord());
  errors.throwIfAny(cls.problemDetail);
  return instance;
}

const permissiveClasses = new WeakMap<object, ReadonlySet<string> | null>();

/**
 * The members of a class whose every class-validator rule is `@Allow()` (CreateTokenRequest: token-service judges
 * every field), or null when it has any other rule. validateSync can find no error in such a class: all it would do
 * is drop the members not declared, as `validateContract` does itself for these classes. Skipping it saves the
 * library's scan of every registered class on each call, about a tenth of the gateway's CPU per create. The rules
 * are looked up as validateSync looks them up (no groups, `always` off), once per class.
 */
export function permissiveMembers(cls: object): ReadonlySet<string> | null {
  let members = permissiveClasses.get(cls);
  if (members === undefined) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(cls as new () => object, undefined as unknown as string, false, false);
    const allowOnly = rules.length > 0 && rules.every((r) => r.type === ValidationTypes.WHITELIST && !r.groups?.length && r.always === undefined);
    members = allowOnly ? new Set(rules.map((r) => r.propertyName)) : null;
    permissiveClasses.set(cls, members);
  }
  return members;
}

const contractClasses = new WeakMap<object, boolean>();

/** Whether `cls` is a contract class: one that declares class-validator rules or chooses one (remembered per class). */
export function isContractClass(cls: unknown): cls is new () => object {
  if (typeof cls !== 'function') return false;
  let known = contractClasses.get(cls);
  if (known === undefined) {
    known = typeof (cls as ContractStatics).shapeOf === 'function' || getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).length > 0;
    contractClasses.set(cls, known);
  }
  return known;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that are UUIDs in the database: anything else cannot exist (404), and must not reach a ::uuid cast (500). */
export function isUuid(v: unknown): v is string {
  return typeof v === 'string' && UUID.test(v);
}
