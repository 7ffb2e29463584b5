// Card details without revealing the card: BIN, last four digits, brand, Luhn check and expiry status.
// Invoke with args {"card": "{{ <card token id> }}"}: the whole card is injected, only `number` and the expiry are kept.
// luhnValid is the check the vault itself applies to card numbers
const { BadRequestError, luhnValid } = require('@coffer/reactor-runtime');

const BRANDS = [
  ['american_express', /^3[47]/, [15]],
  ['diners_club', /^3(0[0-5]|[689])/, [14, 16, 19]],
  ['jcb', /^35(2[89]|[3-8])/, [16, 17, 18, 19]],
  ['discover', /^(6011|64[4-9]|65|622(12[6-9]|1[3-9]|[2-8]|9[01]|92[0-5]))/, [16, 17, 18, 19]],
  ['unionpay', /^62/, [16, 17, 18, 19]],
  ['maestro', /^(5018|5020|5038|5893|6304|6759|676[1-3])/, [12, 13, 14, 15, 16, 17, 18, 19]],
  ['mastercard', /^(5[1-5]|2(2(2[1-9]|[3-9])|[3-6]|7([01]|20)))/, [16]],
  ['visa', /^4/, [13, 16, 19]],
];

module.exports = async function (req) {
  const card = req.args.card || {};
  const number = String(card.number || '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number)) throw new BadRequestError({ 'card.number': ['must hold 12 to 19 digits'] });
  const brand = BRANDS.find(([, prefix, lengths]) => prefix.test(number) && lengths.includes(number.length));
  const raw = {
    bin: number.slice(0, number.length >= 16 ? 8 : 6),
    last4: number.slice(-4),
    length: number.length,
    brand: brand ? brand[0] : 'unknown',
    luhn_valid: luhnValid(number),
  };
  if (card.expiration_month !== undefined && card.expiration_year !== undefined) {
    const now = new Date();
    const year = now.getUTCFullYear();
    const month = now.getUTCMonth() + 1;
    raw.expired = card.expiration_year < year || (card.expiration_year === year && card.expiration_month < month);
  }
  return { raw };
};
