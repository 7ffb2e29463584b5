import type { BankDetailsView, CardDetailsView } from '@coffer/contracts';

/**
 * Card brands by number prefix, tried in order (the first match wins): the ranges the networks publish, as the
 * mirrored service names them. Coffer has no BIN database, so nothing finer (funding, issuer) is claimed.
 */
const BRANDS: ReadonlyArray<{ brand: string; matches: (n: string) => boolean }> = [
  { brand: 'visa', matches: (n) => n.startsWith('4') },
  { brand: 'american-express', matches: (n) => /^3[47]/.test(n) },
  { brand: 'mastercard', matches: (n) => inRange(n, 2, 51, 55) || inRange(n, 4, 2221, 2720) },
  { brand: 'discover', matches: (n) => n.startsWith('6011') || inRange(n, 3, 644, 649) || n.startsWith('65') || inRange(n, 6, 622126, 622925) },
  { brand: 'jcb', matches: (n) => inRange(n, 4, 3528, 3589) },
  { brand: 'diners-club', matches: (n) => inRange(n, 3, 300, 305) || /^3[689]/.test(n) },
  { brand: 'unionpay', matches: (n) => /^(62|81)/.test(n) },
  { brand: 'maestro', matches: (n) => /^(5018|5020|5038|5893|6304|6759|676[1-3])/.test(n) },
];

function inRange(number: string, digits: number, low: number, high: number): boolean {
  const prefix = Number(number.slice(0, digits));
  return number.length >= digits && prefix >= low && prefix <= high;
}

export function cardBrand(number: string): string | undefined {
  return BRANDS.find((b) => b.matches(number))?.brand;
}

/** What a reply may tell of a card: the first 8 digits of a number of 16 or more (else 6), the last 4, expiry, brand. */
export function cardDetails(data: unknown): CardDetailsView | undefined {
  const card = data as { number?: unknown; expiration_month?: unknown; expiration_year?: unknown };
  if (typeof card?.number !== 'string') return undefined;
  const number = card.number;
  const details: CardDetailsView = { bin: number.slice(0, number.length >= 16 ? 8 : 6), last4: number.slice(-4) };
  if (typeof card.expiration_month === 'number') details.expiration_month = card.expiration_month;
  if (typeof card.expiration_year === 'number') details.expiration_year = card.expiration_year;
  const brand = cardBrand(number);
  if (brand) details.brand = brand;
  return details;
}

/** A bank account as a reply may show it: the routing number (public), the account number's last 4. */
export function bankDetails(data: unknown): BankDetailsView | undefined {
  const bank = data as { routing_number?: unknown; account_number?: unknown };
  if (typeof bank?.routing_number !== 'string' || typeof bank.account_number !== 'string') return undefined;
  return { routing_number: bank.routing_number, account_number_last4: bank.account_number.slice(-4) };
}

/** `card` and `bank` of an intent's view, from its (validated) data; the other types have neither. */
export function intentDetails(type: string, data: unknown): { card?: CardDetailsView; bank?: BankDetailsView } {
  if (type === 'card') return { card: cardDetails(data) };
  if (type === 'bank') return { bank: bankDetails(data) };
  return {};
}
