import { abaRoutingValid, luhnValid } from './checksums';

describe('check digits', () => {
  it.each(['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117', '79927398713'])('Luhn accepts %s', (n) =>
    expect(luhnValid(n)).toBe(true),
  );
  it.each(['4242424242424241', '1234567812345678', '79927398710'])('Luhn refuses %s', (n) => expect(luhnValid(n)).toBe(false));
  it.each(['021000021', '011000015', '121000358'])('ABA accepts %s', (n) => expect(abaRoutingValid(n)).toBe(true));
  it.each(['123456789', '000000000', '02100002', '02100002a'])('ABA refuses %s', (n) => expect(abaRoutingValid(n)).toBe(false));
});
