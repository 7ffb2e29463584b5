import { describe, expect, it } from 'vitest';
import { updatable } from './fixed-options';

describe('options an update may change', () => {
  it('keeps the look and the behaviour, drops every rule that decides validity, completeness or the brand', () => {
    const asked = {
      placeholder: 'Card',
      disabled: true,
      style: { base: { color: 'red' } },
      validation: /^4/,
      mask: ['9'],
      cardTypes: [{ type: 'probe', patterns: [42424242], lengths: [16] }],
      skipLuhnValidation: true,
      cardBrand: 'visa',
      cardNumberElement: 'abc',
      maxLength: 3,
    };
    expect(updatable(asked as never)).toEqual({ placeholder: 'Card', disabled: true, style: { base: { color: 'red' } } });
  });
});
