import 'reflect-metadata';
import { FieldErrors } from '../problem/problem';
import { checkCodeReactorConfiguration, checkReactorRuntime, reactorKind } from './code-reactors';

const errorsOf = (fill: (e: FieldErrors) => void) => {
  const e = new FieldErrors();
  fill(e);
  return e.toRecord();
};

describe('code reactors', () => {
  it('a reactor runs a formula or its own code: exactly one', () => {
    expect(reactorKind({ code: 'x' }, new FieldErrors())).toBe('code');
    expect(reactorKind({ formula: { id: 'f' } }, new FieldErrors())).toBe('formula');
    expect(Object.keys(errorsOf((e) => reactorKind({ code: 'x', formula: { id: 'f' } }, e))).sort()).toEqual(['code', 'formula']);
    expect(Object.keys(errorsOf((e) => reactorKind({}, e)))).toEqual(['formula']);
    expect(Object.keys(errorsOf((e) => reactorKind({ formula: { id: 'f' }, runtime: {} }, e)))).toEqual(['runtime']);
  });

  it('runtime: node-bt only; packages, permissions and other members are refused, not ignored', () => {
    expect(errorsOf((e) => checkReactorRuntime({ image: 'node-bt', dependencies: {}, permissions: [], timeout: null }, e))).toEqual({});
    expect(
      Object.keys(errorsOf((e) => checkReactorRuntime({ image: 'node22', dependencies: { a: '1' }, permissions: ['token:read'], timeout: 30 }, e))).sort(),
    ).toEqual(['runtime.dependencies', 'runtime.image', 'runtime.permissions', 'runtime.timeout']);
  });

  it('configuration: any names, scalar values', () => {
    expect(errorsOf((e) => checkCodeReactorConfiguration({ a: 'x', b: 1, c: true, d: null }, e))).toEqual({});
    expect(Object.keys(errorsOf((e) => checkCodeReactorConfiguration({ a: { b: 1 }, c: [1], n: Infinity }, e))).sort()).toEqual([
      'configuration.a',
      'configuration.c',
      'configuration.n',
    ]);
  });
});
