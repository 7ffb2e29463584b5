/**
 * The check digits of the numbers Coffer validates, written once: the vault checks them on every token it stores
 * (libs/contracts token-data) and the hosted card fields check them as the card number is typed (apps/elements).
 * Pure functions of a string of ASCII digits, for Node and the browser alike.
 */

/** Luhn (mod 10) checksum of a string of digits (the caller checks that it holds digits only). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ABA routing number checksum (3-7-1 weights) of nine digits. */
export function abaRoutingValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0 && sum > 0;
}
