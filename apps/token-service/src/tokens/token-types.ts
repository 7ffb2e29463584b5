import { TOKEN_DATA_RULES, abaRoutingValid, luhnValid, type FieldErrors } from '@coffer/contracts';

/** docs/tokens.md: validation, default container, default mask and default search indexes per token type. */
export interface TokenTypeDefinition {
  container: string;
  mask?: unknown;
  searchIndexes?: string[];
  validate(data: unknown, errors: FieldErrors): void;
}

const REVEAL_LAST_4 = '{{ data | reveal_last: 4 }}';

export { abaRoutingValid, luhnValid };

export const TOKEN_TYPES: Record<string, TokenTypeDefinition> = {
  token: {
    container: '/general/high/',
    validate: TOKEN_DATA_RULES['token'],
  },
  card: {
    container: '/pci/high/',
    mask: {
      number: '{{ data.number | reveal_last: 4 }}',
      expiration_month: '{{ data.expiration_month }}',
      expiration_year: '{{ data.expiration_year }}',
    },
    validate: TOKEN_DATA_RULES['card'],
  },
  bank: {
    container: '/bank/high/',
    mask: {
      routing_number: '{{ data.routing_number }}',
      account_number: '{{ data.account_number | reveal_last: 4 }}',
    },
    validate: TOKEN_DATA_RULES['bank'],
  },
  card_number: {
    container: '/pci/high/',
    mask: REVEAL_LAST_4,
    validate: TOKEN_DATA_RULES['card_number'],
  },
  us_bank_routing_number: {
    container: '/bank/low/',
    mask: REVEAL_LAST_4,
    validate: TOKEN_DATA_RULES['us_bank_routing_number'],
  },
  us_bank_account_number: {
    container: '/bank/high/',
    mask: REVEAL_LAST_4,
    validate: TOKEN_DATA_RULES['us_bank_account_number'],
  },
  social_security_number: {
    container: '/pii/high/',
    mask: REVEAL_LAST_4,
    searchIndexes: ['{{ data }}', "{{ data | remove: '-' }}", '{{ data | last4 }}'],
    validate: TOKEN_DATA_RULES['social_security_number'],
  },
  employer_id_number: {
    container: '/pii/high/',
    mask: REVEAL_LAST_4,
    searchIndexes: ['{{ data }}', "{{ data | remove: '-' }}", '{{ data | last4 }}'],
    validate: TOKEN_DATA_RULES['employer_id_number'],
  },
};
