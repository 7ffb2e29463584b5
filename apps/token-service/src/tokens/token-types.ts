import type { FieldErrors } from '@coffer/contracts';

/** conventions §5: validation, default container, default mask and default search indexes per token type. */
export interface TokenTypeDefinition {
  container: string;
  mask?: unknown;
  searchIndexes?: string[];
  validate(data: unknown, errors: FieldErrors): void;
}

const REVEAL_LAST_4 = '{{ data | reveal_last: 4 }}';
const DIGITS = /^\d+$/;

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

export function abaRoutingValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0 && sum > 0;
}

function cardNumber(value: unknown, path: string, errors: FieldErrors): void {
  if (typeof value !== 'string') errors.add(path, 'must be a string of 13 to 19 digits');
  else if (!/^\d{13,19}$/.test(value)) errors.add(path, 'must be 13 to 19 digits without separators');
  else if (!luhnValid(value)) errors.add(path, 'must pass the Luhn check');
}

function routingNumber(value: unknown, path: string, errors: FieldErrors): void {
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

function ninedigits(pattern: RegExp, example: string) {
  return (data: unknown, errors: FieldErrors) => {
    if (typeof data !== 'string' || !(pattern.test(data) || /^\d{9}$/.test(data)))
      errors.add('data', `must be 9 digits, dashes allowed (${example})`);
  };
}

export const TOKEN_TYPES: Record<string, TokenTypeDefinition> = {
  token: {
    container: '/general/high/',
    validate(data, errors) {
      if (data === null || data === undefined) errors.add('data', 'is required');
    },
  },
  card: {
    container: '/pci/high/',
    mask: {
      number: '{{ data.number | reveal_last: 4 }}',
      expiration_month: '{{ data.expiration_month }}',
      expiration_year: '{{ data.expiration_year }}',
    },
    validate(data, errors) {
      const card = objectData(data, errors);
      if (!card) return;
      if (card['number'] === undefined) errors.add('data.number', 'is required');
      else cardNumber(card['number'], 'data.number', errors);
      const m = card['expiration_month'];
      if (m !== undefined && m !== null && !(Number.isInteger(m) && (m as number) >= 1 && (m as number) <= 12))
        errors.add('data.expiration_month', 'must be an integer from 1 to 12');
      const y = card['expiration_year'];
      if (y !== undefined && y !== null && !(Number.isInteger(y) && (y as number) >= 1000 && (y as number) <= 9999))
        errors.add('data.expiration_year', 'must be a four-digit year');
      const cvc = card['cvc'];
      if (cvc !== undefined && cvc !== null && !(typeof cvc === 'string' && /^\d{3,4}$/.test(cvc)))
        errors.add('data.cvc', 'must be a string of 3 or 4 digits');
    },
  },
  bank: {
    container: '/bank/high/',
    mask: {
      routing_number: '{{ data.routing_number }}',
      account_number: '{{ data.account_number | reveal_last: 4 }}',
    },
    validate(data, errors) {
      const bank = objectData(data, errors);
      if (!bank) return;
      if (bank['routing_number'] === undefined) errors.add('data.routing_number', 'is required');
      else routingNumber(bank['routing_number'], 'data.routing_number', errors);
      const acct = bank['account_number'];
      if (acct === undefined) errors.add('data.account_number', 'is required');
      else if (typeof acct !== 'string' || !/^\d{1,17}$/.test(acct))
        errors.add('data.account_number', 'must be a string of up to 17 digits');
    },
  },
  card_number: {
    container: '/pci/high/',
    mask: REVEAL_LAST_4,
    validate(data, errors) {
      cardNumber(data, 'data', errors);
    },
  },
  us_bank_routing_number: {
    container: '/bank/low/',
    mask: REVEAL_LAST_4,
    validate(data, errors) {
      routingNumber(data, 'data', errors);
    },
  },
  us_bank_account_number: {
    container: '/bank/high/',
    mask: REVEAL_LAST_4,
    validate(data, errors) {
      if (typeof data !== 'string' || !DIGITS.test(data) || data.length < 3 || data.length > 17)
        errors.add('data', 'must be a string of 3 to 17 digits');
    },
  },
  social_security_number: {
    container: '/pii/high/',
    mask: REVEAL_LAST_4,
    searchIndexes: ['{{ data }}', "{{ data | remove: '-' }}", '{{ data | last4 }}'],
    validate: ninedigits(/^\d{3}-\d{2}-\d{4}$/, '123-45-6789'),
  },
  employer_id_number: {
    container: '/pii/high/',
    mask: REVEAL_LAST_4,
    searchIndexes: ['{{ data }}', "{{ data | remove: '-' }}", '{{ data | last4 }}'],
    validate: ninedigits(/^\d{2}-\d{7}$/, '12-3456789'),
  },
};
