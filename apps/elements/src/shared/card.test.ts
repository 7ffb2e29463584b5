import { describe, expect, it } from 'vitest';
import {
  MAX_CUSTOM_BRANDS,
  brandsFor,
  checkCardNumber,
  checkCvc,
  checkExpiry,
  checkText,
  conformToMask,
  cvcLengths,
  detectBrand,
  formatCardNumber,
  formatExpiry,
  luhn,
} from './card';

describe('brand detection', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['4', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['2720990000000000', 'mastercard'],
    ['378282246310005', 'american-express'],
    ['34', 'american-express'],
    ['6011111111111117', 'discover'],
    ['6445644564456445', 'discover'],
    ['65', 'discover'],
    ['30569309025904', 'diners-club'],
    ['36227206271667', 'diners-club'],
    ['3566002020360505', 'jcb'],
    ['6200000000000005', 'unionpay'],
    ['8171999927660000', 'unionpay'],
    ['6759649826438453', 'maestro'],
    ['5018', 'maestro'],
    ['6362970000457013', 'elo'],
    ['4011780000000000', 'elo'],
    ['6062826786276634', 'hipercard'],
    ['2200000000000004', 'mir'],
  ])('%s is %s', (number, brand) => {
    expect(detectBrand(number)?.type).toBe(brand);
  });

  it('prefers the most specific prefix once it is typed', () => {
    expect(detectBrand('41')?.type).toBe('visa');
    expect(detectBrand('40117')?.type).toBe('elo');
    expect(detectBrand('401170')?.type).toBe('visa');
    expect(detectBrand('401178')?.type).toBe('elo');
    expect(detectBrand('6')?.type).toBe('maestro');
    expect(detectBrand('601')?.type).toBe('discover');
  });

  it('knows no brand for other numbers', () => {
    expect(detectBrand('')).toBeUndefined();
    expect(detectBrand('9999')).toBeUndefined();
    expect(checkCardNumber('9999').brand).toBe('unknown');
  });

  it('restricts to cardTypes, by id or by definition', () => {
    expect(brandsFor(['visa', 'nope']).map((b) => b.type)).toEqual(['visa']);
    const custom = { type: 'acme', niceType: 'Acme', patterns: [99], gaps: [4], lengths: [12], code: { name: 'CVC', size: 3 } };
    expect(detectBrand('990000000000', brandsFor([custom]))?.type).toBe('acme');
    const s = checkCardNumber('5555555555554444', { cardTypes: ['visa'] });
    expect(s.complete).toBe(false);
    expect(s.error).toBe('invalid');
  });
});

describe('Luhn', () => {
  it.each(['4242424242424242', '378282246310005', '6011111111111117', '79927398713'])('%s passes', (n) => expect(luhn(n)).toBe(true));
  it.each(['4242424242424241', '79927398710', '', '4242 4242 4242 4242', 'abc'])('%j fails', (n) => expect(luhn(n)).toBe(false));

  it('makes a full-length number invalid, and can be skipped', () => {
    expect(checkCardNumber('4242424242424241')).toMatchObject({ complete: false });
    expect(checkCardNumber('5555555555554443')).toMatchObject({ complete: false, valid: false, error: 'invalid' });
    expect(checkCardNumber('5555555555554443', { skipLuhnValidation: true })).toMatchObject({ complete: true, valid: true });
  });
});

describe('card number state', () => {
  it('is complete at a brand length, with last 4 and BIN', () => {
    expect(checkCardNumber('4242 4242 4242 4242')).toMatchObject({
      complete: true,
      valid: true,
      brand: 'visa',
      last4: '4242',
      bin: '42424242',
      digits: '4242424242424242',
    });
    expect(checkCardNumber('378282246310005')).toMatchObject({ complete: true, bin: '378282', last4: '0005' });
  });

  it('is incomplete while typing and empty when empty', () => {
    expect(checkCardNumber('4242')).toMatchObject({ complete: false, valid: true, error: 'incomplete' });
    expect(checkCardNumber('')).toMatchObject({ empty: true, complete: false, valid: true });
    expect(checkCardNumber('4242').last4).toBeUndefined();
  });
});

describe('number formatting', () => {
  it('groups digits at the brand gaps', () => {
    expect(formatCardNumber('4242424242424242', detectBrand('4'))).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005', detectBrand('37'))).toBe('3782 822463 10005');
    expect(formatCardNumber('36227206271667', detectBrand('36'))).toBe('3622 720627 1667');
    expect(formatCardNumber('4242-4242x42', detectBrand('4'))).toBe('4242 4242 42');
  });

  it('cuts at the longest length of the brand', () => {
    expect(formatCardNumber('3782822463100051234', detectBrand('37'))).toBe('3782 822463 10005');
    expect(formatCardNumber('4242424242424242424242', detectBrand('4'))).toBe('4242 4242 4242 4242424');
    expect(formatCardNumber('99999999999999999999999')).toBe('9999 9999 9999 9999999');
  });
});

describe('expiry', () => {
  const now = new Date(2026, 10, 28);

  it('formats as the user types', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('4')).toBe('04/');
    expect(formatExpiry('12', '1')).toBe('12/');
    expect(formatExpiry('1/', '1')).toBe('01/');
    expect(formatExpiry('12/3', '12/')).toBe('12/3');
    expect(formatExpiry('1230', '')).toBe('12/30');
    expect(formatExpiry('12', '12/')).toBe('12');
  });

  it('takes an autofilled MM/YYYY', () => {
    expect(formatExpiry('12/2030')).toBe('12/30');
    expect(formatExpiry('3/2031')).toBe('03/31');
  });

  it('is complete for this month or later', () => {
    expect(checkExpiry('11/26', now)).toMatchObject({ complete: true, month: 11, year: 2026 });
    expect(checkExpiry('01/30', now)).toMatchObject({ complete: true, month: 1, year: 2030 });
    expect(checkExpiry('12/2031', now)).toMatchObject({ complete: true, year: 2031 });
  });

  it('is invalid in the past, for a bad month, or too far ahead', () => {
    expect(checkExpiry('10/26', now)).toMatchObject({ complete: false, error: 'invalid' });
    expect(checkExpiry('12/25', now)).toMatchObject({ error: 'invalid' });
    expect(checkExpiry('13/30', now)).toMatchObject({ error: 'invalid' });
    expect(checkExpiry('00/30', now)).toMatchObject({ error: 'invalid' });
    expect(checkExpiry('13', now)).toMatchObject({ error: 'invalid' });
    expect(checkExpiry('01/2099', now)).toMatchObject({ error: 'invalid' });
  });

  it('is incomplete while typing', () => {
    expect(checkExpiry('1', now)).toMatchObject({ complete: false, valid: true, error: 'incomplete' });
    expect(checkExpiry('12/', now)).toMatchObject({ valid: true, error: 'incomplete' });
    expect(checkExpiry('12/3', now)).toMatchObject({ valid: true, error: 'incomplete' });
    expect(checkExpiry('', now)).toMatchObject({ empty: true });
  });
});

describe('security code', () => {
  it('follows the brand', () => {
    expect(cvcLengths('american-express')).toEqual([4]);
    expect(cvcLengths('visa')).toEqual([3]);
    expect(cvcLengths(undefined)).toEqual([3, 4]);
    expect(checkCvc('123', 'visa')).toMatchObject({ complete: true });
    expect(checkCvc('123', 'american-express')).toMatchObject({ complete: false, valid: true, error: 'incomplete' });
    expect(checkCvc('1234', 'american-express')).toMatchObject({ complete: true });
    expect(checkCvc('1234', 'visa')).toMatchObject({ complete: false, error: 'invalid' });
    expect(checkCvc('1234')).toMatchObject({ complete: true });
    expect(checkCvc('12')).toMatchObject({ error: 'incomplete' });
    expect(checkCvc('12a')).toMatchObject({ error: 'invalid' });
    expect(checkCvc('')).toMatchObject({ empty: true, valid: true });
  });
});

describe('text masks and validation', () => {
  const ssn = [/\d/, /\d/, /\d/, '-', /\d/, /\d/, '-', /\d/, /\d/, /\d/, /\d/];

  it('conforms typed text to the mask', () => {
    expect(conformToMask('123456789', ssn)).toEqual({ value: '123-45-6789', satisfied: true });
    expect(conformToMask('123-4', ssn)).toEqual({ value: '123-4', satisfied: false });
    expect(conformToMask('12a3', ssn)).toEqual({ value: '123', satisfied: false });
  });

  it('reports maskSatisfied and validation', () => {
    expect(checkText('123-45-6789', { mask: ssn })).toMatchObject({ complete: true, maskSatisfied: true });
    expect(checkText('123-45', { mask: ssn })).toMatchObject({ complete: false, maskSatisfied: false, error: 'incomplete' });
    expect(checkText('abc', { validation: /^\d+$/ })).toMatchObject({ complete: false, valid: false, error: 'invalid' });
    expect(checkText('123', { validation: /^\d+$/ })).toMatchObject({ complete: true, valid: true });
    expect(checkText('')).toMatchObject({ empty: true, complete: false });
  });

  it("takes a page's own brands only with prefixes no longer than the BIN it is told anyway, and at most 20 of them", () => {
    const long = { type: 'probe', niceType: 'Probe', patterns: [424242424], gaps: [4, 8, 12], lengths: [16], code: { name: 'CVC', size: 3 } };
    const range = { ...long, patterns: [[42424242, 42424243]] as [number, number][] };
    const fine = { ...long, patterns: [42424242] };
    expect(brandsFor([long]).map((b) => b.type)).toEqual([]);
    expect(brandsFor([range, fine]).map((b) => b.type)).toEqual(['probe', 'probe']);
    expect(brandsFor([{ ...fine, lengths: [40] }])).toEqual([]);
    expect(brandsFor(Array.from({ length: 50 }, (_, i) => ({ ...fine, type: `b${i}` }))).length).toBe(MAX_CUSTOM_BRANDS);
  });
});
