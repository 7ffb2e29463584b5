import type { Type } from '@nestjs/common';
import { OmitType as omitType, PartialType as partialType, PickType as pickType, applyIsOptionalDecorator } from '@nestjs/mapped-types';
import type { ApiPropertyOptions } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';

/**
 * The API reference's documentation of the contract classes' properties, without @nestjs/swagger.
 *
 * The classes here are what every service validates and answers with, and also what the gateway's API reference
 * documents. @nestjs/swagger is only the gateway's business, yet importing its decorators here loaded it in every
 * service (about 3 MB of heap and 5 MB of resident memory per service, and its start-up time). So the classes use the
 * decorators of this module, which record what they document; the gateway hands @nestjs/swagger's own `ApiProperty`
 * to `applyPropertyDocs` before it builds the document, and the records are applied through it, in the order they
 * were made (from then on, a decorator applies at once). The mapped types (`PartialType`, `OmitType`, `PickType`)
 * are @nestjs/mapped-types' (the validation and transformation rules they inherit are the same as @nestjs/swagger's
 * versions give) and carry the documentation of the properties they keep as @nestjs/swagger's versions do.
 */

interface PropertyDoc {
  /** the prototype of the class documented */
  readonly target: object;
  readonly key: string;
  readonly options: ApiPropertyOptions;
}

/** What the gateway hands over: @nestjs/swagger's ApiProperty. */
export interface SwaggerPropertyDecorator {
  ApiProperty(options?: ApiPropertyOptions): PropertyDecorator;
}

const recorded: PropertyDoc[] = [];
let swagger: SwaggerPropertyDecorator | undefined;

function record(doc: PropertyDoc): void {
  recorded.push(doc);
  swagger?.ApiProperty(doc.options)(doc.target, doc.key);
}

/** Documents a property (required unless `options.required` is false), as @nestjs/swagger's ApiProperty does. */
export function ApiProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  return (target, key) => record({ target, key: String(key), options });
}

/** Documents an optional property, as @nestjs/swagger's ApiPropertyOptional does. */
export function ApiPropertyOptional(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiProperty({ ...options, required: false } as ApiPropertyOptions);
}

/** A property the reference leaves out: documents nothing (as @nestjs/swagger's), said for the reader. */
export function ApiHideProperty(): PropertyDecorator {
  return () => undefined;
}

/**
 * Applies every recorded property's documentation through `decorators` (@nestjs/swagger's), once; the gateway calls
 * it before it builds the API reference.
 */
export function applyPropertyDocs(decorators: SwaggerPropertyDecorator): void {
  if (swagger) return;
  swagger = decorators;
  for (const doc of recorded) swagger.ApiProperty(doc.options)(doc.target, doc.key);
}

function prototypesOf(cls: Type<unknown>): object[] {
  const chain: object[] = [];
  for (let p: object | null = cls.prototype as object; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) chain.push(p);
  return chain;
}

/**
 * The documented properties of `cls` (its own and its ancestors'), in the order they were documented, each with the
 * options of its nearest documentation (a subclass's own wins, several on one class merge in order).
 */
function documented(cls: Type<unknown>): Array<{ key: string; options: ApiPropertyOptions }> {
  const chain = prototypesOf(cls);
  const keys = [...new Set(recorded.filter((d) => chain.includes(d.target)).map((d) => d.key))];
  return keys.map((key) => {
    const nearest = chain.find((p) => recorded.some((d) => d.target === p && d.key === key));
    const options = recorded.filter((d) => d.target === nearest && d.key === key).reduce((all, d) => ({ ...all, ...d.options }), {});
    return { key, options: options as ApiPropertyOptions };
  });
}

/** Documents `keys` of `mapped` as `base` documents them (its TypeScript design type included), `adjust`ed. */
function inheritDocs(base: Type<unknown>, mapped: Type<unknown>, keep: (key: string) => boolean, adjust = (o: ApiPropertyOptions) => o): string[] {
  const kept = documented(base).filter((p) => keep(p.key));
  for (const { key, options } of kept) {
    // @nestjs/swagger infers an undeclared type from the property's design type, which a mapped class has none of
    const designType: unknown = Reflect.getMetadata?.('design:type', base.prototype as object, key);
    if (designType !== undefined) Reflect.defineMetadata('design:type', designType, mapped.prototype as object, key);
    record({ target: mapped.prototype as object, key, options: adjust(options) });
  }
  return kept.map((p) => p.key);
}

/** @nestjs/mapped-types' PartialType, every documented property optional (and so made optional in validation too). */
export function PartialType<T>(base: Type<T>): Type<Partial<T>> {
  const validated = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(base, undefined as unknown as string, false, false)
      .map((m) => m.propertyName),
  );
  const mapped = partialType(base);
  const keys = inheritDocs(
    base,
    mapped,
    () => true,
    (o) => ({ ...o, required: false }) as ApiPropertyOptions,
  );
  // @nestjs/swagger's PartialType makes every documented property optional, not only those with validation rules
  for (const key of keys) if (!validated.has(key)) applyIsOptionalDecorator(mapped, key);
  return mapped;
}

/** @nestjs/mapped-types' OmitType, with the documentation of the properties it keeps. */
export function OmitType<T, K extends keyof T>(base: Type<T>, keys: readonly K[]): Type<Omit<T, (typeof keys)[number]>> {
  const mapped = omitType(base, keys);
  inheritDocs(base, mapped, (key) => !keys.includes(key as K));
  return mapped;
}

/** @nestjs/mapped-types' PickType, with the documentation of the properties it keeps. */
export function PickType<T, K extends keyof T>(base: Type<T>, keys: readonly K[]): Type<Pick<T, (typeof keys)[number]>> {
  const mapped = pickType(base, keys);
  inheritDocs(base, mapped, (key) => keys.includes(key as K));
  return mapped;
}
