import * as swagger from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { CreateApplicationRequest, CreateTokenRequest, UpdateReactorRequest } from '../index';
import { ApiProperty, OmitType, PartialType, PickType, applyPropertyDocs } from './property-docs';

/** A class's validation rules as class-validator keeps them, in a comparable form. */
function rulesOf(cls: new () => object): string[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(cls, undefined as unknown as string, false, false)
    .map((r) => JSON.stringify([r.propertyName, r.type, r.name, r.constraints, r.each, r.groups, r.always]))
    .sort();
}

/**
 * What @nestjs/swagger recorded for the class's properties (its own metadata keys: this test's business only).
 * `isArray: false` is left out: @nestjs/swagger's mapped types re-apply a property's stored options, which spell out
 * the default; the document it makes is the same (the gateway's snapshot test of the whole reference).
 */
function docsOf(cls: new () => object): Record<string, unknown> {
  const keys: string[] = Reflect.getMetadata('swagger/apiModelPropertiesArray', cls.prototype) ?? [];
  return Object.fromEntries(
    keys.map((k) => {
      const { isArray, ...options } = Reflect.getMetadata('swagger/apiModelProperties', cls.prototype, k.slice(1)) as Record<string, unknown>;
      return [k.slice(1), isArray === false ? options : { isArray, ...options }];
    }),
  );
}

describe('contract property documentation without @nestjs/swagger', () => {
  beforeAll(() => applyPropertyDocs({ ApiProperty: swagger.ApiProperty }));

  // the derived request classes of libs/contracts, built both ways from the same base
  const cases: Array<[string, () => new () => object, () => new () => object]> = [
    [
      'PartialType(OmitType(CreateTokenRequest, …)) (UpdateTokenPatch)',
      () => PartialType(OmitType(CreateTokenRequest, ['id', 'type', 'token_intent_id'] as const)),
      () => swagger.PartialType(swagger.OmitType(CreateTokenRequest, ['id', 'type', 'token_intent_id'] as const)),
    ],
    [
      'OmitType(CreateApplicationRequest, …) (UpdateApplicationRequest)',
      () => OmitType(CreateApplicationRequest, ['type', 'create_key'] as const),
      () => swagger.OmitType(CreateApplicationRequest, ['type', 'create_key'] as const),
    ],
    [
      'PickType(UpdateReactorRequest, …) (ReplaceReactorRequest)',
      () => PickType(UpdateReactorRequest, ['name', 'application', 'egress'] as const),
      () => swagger.PickType(UpdateReactorRequest, ['name', 'application', 'egress'] as const),
    ],
  ];

  it.each(cases)('%s: the same validation rules, initial members and documentation as @nestjs/swagger’s mapped types give', (_name, ours, theirs) => {
    const [a, b] = [ours(), theirs()];
    expect(rulesOf(a)).toEqual(rulesOf(b));
    expect(Object.keys(new a())).toEqual(Object.keys(new b()));
    expect(docsOf(a)).toEqual(docsOf(b));
    expect(Object.keys(docsOf(a)).length).toBeGreaterThan(0);
  });

  it('a class documented after the documentation was applied is documented at once, as @nestjs/swagger would', () => {
    class Ours {
      @ApiProperty({ description: 'a name', example: 'x' })
      name!: string;
    }
    class Theirs {
      @swagger.ApiProperty({ description: 'a name', example: 'x' })
      name!: string;
    }
    expect(docsOf(Ours)).toEqual(docsOf(Theirs));
    expect(docsOf(Ours)).toEqual({ name: { description: 'a name', example: 'x', type: String } });
  });
});
