import { bankDetails, cardBrand, cardDetails, intentDetails } from './intent-details';

describe('token intent details', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['4000056655665556', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'american-express'],
    ['371449635398431', 'american-express'],
    ['6011111111111117', 'discover'],
    ['6445644564456445', 'discover'],
    ['6221260000000000', 'discover'],
    ['3566002020360505', 'jcb'],
    ['30569309025904', 'diners-club'],
    ['36227206271667', 'diners-club'],
    ['6200000000000005', 'unionpay'],
    ['6759649826438453', 'maestro'],
  ])('%s is %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });

  it('names no brand it cannot tell (no guess)', () => {
    expect(cardBrand('1234567812345670')).toBeUndefined();
    expect(cardDetails({ number: '1234567812345670' })).toEqual({ bin: '12345678', last4: '5670' });
  });

  it('bin: 8 digits from 16 digits on, else 6; expiry only when given', () => {
    expect(cardDetails({ number: '4242424242424242', expiration_month: 1, expiration_year: 2031, cvc: '123' })).toEqual({
      bin: '42424242',
      last4: '4242',
      expiration_month: 1,
      expiration_year: 2031,
      brand: 'visa',
    });
    expect(cardDetails({ number: '378282246310005' })).toEqual({ bin: '378282', last4: '0005', brand: 'american-express' });
  });

  it('bank: routing number and the last 4 of the account; other types: nothing', () => {
    expect(bankDetails({ routing_number: '021000021', account_number: '1234567890' })).toEqual({ routing_number: '021000021', account_number_last4: '7890' });
    expect(intentDetails('card_number', '4242424242424242')).toEqual({});
    expect(intentDetails('social_security_number', '123-45-6789')).toEqual({});
    expect(JSON.stringify(intentDetails('card', { number: '4242424242424242', cvc: '987' }))).not.toContain('987');
  });
});
