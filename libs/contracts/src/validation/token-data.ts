import { abaRoutingValid, luhnValid } from '@coffer/checksums';
import { FieldErrors } from '../problem/problem';

/**
 * The rules for token `data` that class-validator cannot express (docs/tokens.md): checksums and the formats of each
 * token type, written once. token-service applies them to every token it validates (POST /tokens, PATCH, each
 * request nested in POST /tokenize, the `svc` bridge of reactors).
 */

// the check digits themselves live in @coffer/checksums (the hosted card fields check Luhn too); still exported here
// for the callers that read them with the rules
export { abaRoutingValid, luhnValid };

const DIGITS = /^\d+$/;

/** A card number: 13–19 digits without separators, passing Luhn. */
export function checkCardNumber(value: unknown, path: string, errors: FieldErrors): void {
  if (typeof value !== 'string') errors.add(path, 'must be a string of 13 to 19 digits');
  else if (!/^\d{13,19}$/.test(value)) errors.add(path, 'must be 13 to 19 digits without separators');
  else if (!luhnValid(value)) errors.add(path, 'must pass the Luhn check');
}

/** A US bank routing number: nine digits passing the ABA checksum. */
export function checkRoutingNumber(value: unknown, path: string, errors: FieldErrors): void {
  if (typeof value !== 'string' || !/^\d{9}$/.test(value)) errors.add(path, 'must be a string of 9 digits');
  else if (!abaRoutingValid(value)) errors.add(path, 'must be a valid ABA routing number (checksum)');
}

function objectData(data: unknown, errors: FieldErrors): Record<string, unknown> | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    errors.add('data', 'must be an object');
    return undefined;
  }
  return data as Record<string, unknown>;
}

function nineDigits(pattern: RegExp, example: string) {
  return (data: unknown, errors: FieldErrors) => {
    if (typeof data !== 'string' || !(pattern.test(data) || /^\d{9}$/.test(data))) errors.add('data', `must be 9 digits, dashes allowed (${example})`);
  };
}

/** `data` of each token type, checked with errors by field path (`data.number`). */
export const TOKEN_DATA_RULES: Record<string, (data: unknown, errors: FieldErrors) => void> = {
  token(data, errors) {
    if (data === null || data === undefined) errors.add('data', 'is required');
  },
  card(data, errors) {
    const card = objectData(data, errors);
    if (!card) return;
    if (card['number'] === undefined) errors.add('data.number', 'is required');
    else checkCardNumber(card['number'], 'data.number', errors);
    const m = card['expiration_month'];
    if (m !== undefined && m !== null && !(Number.isInteger(m) && (m as number) >= 1 && (m as number) <= 12))
      errors.add('data.expiration_month', 'must be an integer from 1 to 12');
    const y = card['expiration_year'];
    if (y !== undefined && y !== null && !(Number.isInteger(y) && (y as number) >= 1000 && (y as number) <= 9999))
      errors.add('data.expiration_year', 'must be a four-digit year');
    const cvc = card['cvc'];
    if (cvc !== undefined && cvc !== null && !(typeof cvc === 'string' && /^\d{3,4}$/.test(cvc))) errors.add('data.cvc', 'must be a string of 3 or 4 digits');
  },
  bank(data, errors) {
    const bank = objectData(data, errors);
    if (!bank) return;
    if (bank['routing_number'] === undefined) errors.add('data.routing_number', 'is required');
    else checkRoutingNumber(bank['routing_number'], 'data.routing_number', errors);
    const acct = bank['account_number'];
    if (acct === undefined) errors.add('data.account_number', 'is required');
    else if (typeof acct !== 'string' || !/^\d{1,17}$/.test(acct)) errors.add('data.account_number', 'must be a string of up to 17 digits');
  },
  card_number(data, errors) {
    checkCardNumber(data, 'data', errors);
  },
  us_bank_routing_number(data, errors) {
    checkRoutingNumber(data, 'data', errors);
  },
  us_bank_account_number(data, errors) {
    if (typeof data !== 'string' || !DIGITS.test(data) || data.length < 3 || data.length > 17) errors.add('data', 'must be a string of 3 to 17 digits');
  },
  social_security_number: nineDigits(/^\d{3}-\d{2}-\d{4}$/, '123-45-6789'),
  employer_id_number: nineDigits(/^\d{2}-\d{7}$/, '12-3456789'),
};
