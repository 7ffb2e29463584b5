import { describe, expect, it } from 'vitest';
import { inputDeclarations, safeValue } from './style';

const look = { empty: false, complete: false, invalid: false, focused: false, hovered: false, disabled: false, readOnly: false };

describe('option styles', () => {
  it('keeps plain CSS values only', () => {
    expect(safeValue('16px')).toBe('16px');
    expect(safeValue(12)).toBe('12');
    for (const v of ['url(https://x/a.png)', 'red; background: blue', 'expression(alert(1))', '}', '<b>', '', {}, undefined])
      expect(safeValue(v)).toBeUndefined();
  });

  it('layers base, state variants and pseudo-classes; pseudo-elements become custom properties', () => {
    const style = {
      base: { color: 'black', fontSmooth: 'antialiased', ':focus': { color: 'blue' }, '::placeholder': { color: 'gray' }, ':hover': { color: 'navy' } },
      invalid: { color: 'red' },
      complete: { color: 'green' },
    };
    expect(Object.fromEntries(inputDeclarations(style, look))).toEqual({
      color: 'black',
      '-webkit-font-smoothing': 'antialiased',
      '-moz-osx-font-smoothing': 'antialiased',
      '--coffer-placeholder-color': 'gray',
    });
    expect(inputDeclarations(style, { ...look, focused: true }).get('color')).toBe('blue');
    expect(inputDeclarations(style, { ...look, hovered: true }).get('color')).toBe('navy');
    expect(inputDeclarations(style, { ...look, invalid: true, focused: true }).get('color')).toBe('red');
    expect(inputDeclarations(style, { ...look, complete: true }).get('color')).toBe('green');
    expect(inputDeclarations({ base: { position: 'fixed' } as never }, look).size).toBe(0);
  });
});
