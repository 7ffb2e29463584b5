import { FieldErrors } from '@coffer/contracts';
import { TOKEN_TYPES, abaRoutingValid, luhnValid } from './token-types';
import { parseExpiresAt } from './expires-at';

describe('checksums', () => {
  it.each(['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117'])('Luhn accepts %s', (n) => expect(luhnValid(n)).toBe(true));
  it.each(['4242424242424241', '1234567812345678'])('Luhn refuses %s', (n) => expect(luhnValid(n)).toBe(false));
  it.each(['021000021', '011000015', '121000358'])('ABA accepts %s', (n) => expect(abaRoutingValid(n)).toBe(true));
  it.each(['123456789', '000000000', '02100002'])('ABA refuses %s', (n) => expect(abaRoutingValid(n)).toBe(false));
});

describe('token type validation', () => {
  const errorsFor = (type: string, data: unknown) => {
    const e = new FieldErrors();
    TOKEN_TYPES[type].validate(data, e);
    return Object.keys(e.toRecord());
  };
  it.each([
    ['card', { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '1234' }, []],
    ['card', { number: '4242' }, ['data.number']],
    [
      'card',
      { number: '4242424242424242', expiration_month: 0, expiration_year: 30, cvc: 'abc' },
      ['data.expiration_month', 'data.expiration_year', 'data.cvc'],
    ],
    ['card', 'not an object', ['data']],
    ['bank', { routing_number: '021000021', account_number: '12345678901234567' }, []],
    ['bank', { routing_number: '021000021', account_number: '123456789012345678' }, ['data.account_number']],
    ['bank', {}, ['data.routing_number', 'data.account_number']],
    ['us_bank_account_number', '12', ['data']],
    ['us_bank_account_number', '123', []],
    ['social_security_number', '123-45-6789', []],
    ['social_security_number', '123456789', []],
    ['social_security_number', '12-345-6789', ['data']],
    ['employer_id_number', '12-3456789', []],
    ['employer_id_number', '123-45-6789', ['data']],
    ['token', { any: ['json'] }, []],
  ])('%s %j', (type, data, expected) => expect(errorsFor(type, data).sort()).toEqual([...expected].sort()));
});

describe('parseExpiresAt', () => {
  it.each([
    ['3/4/2030 1:30:00 PM +02:00', '2030-03-04T11:30:00.000Z'],
    ['3/4/2030 1:30:00 PM -05:30', '2030-03-04T19:00:00.000Z'],
    ['3/4/2030 12:00:00 AM', '2030-03-04T00:00:00.000Z'],
    ['3/4/2030 12:15:00 PM', '2030-03-04T12:15:00.000Z'],
    ['12/31/2030', '2030-12-31T00:00:00.000Z'],
    ['2030-03-04T10:00:00Z', '2030-03-04T10:00:00.000Z'],
    ['2030-03-04T10:00:00+01:00', '2030-03-04T09:00:00.000Z'],
    ['2030-03-04T10:00:00', '2030-03-04T10:00:00.000Z'],
    ['2030-03-04', '2030-03-04T00:00:00.000Z'],
  ])('%s → %s', (text, iso) => expect(parseExpiresAt(text)?.toISOString()).toBe(iso));
  it.each(['tomorrow', '2/30/2030', '13/1/2030', '3/4/2030 13:00:00 PM', ''])('refuses %s', (text) => expect(parseExpiresAt(text)).toBeNull());
});
