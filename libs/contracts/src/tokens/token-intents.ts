import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { TenantResource } from '../tenant-resource';
import { Allow } from 'class-validator';
import { ApiAnyJson } from '../openapi/json-schema';
import { TOKEN_TYPE_NAMES } from './tokens';

/**
 * POST /token-intents (docs/token-intents.md): the two members of the mirrored service's request. `data` is judged by
 * token-service with the rules of a token of the same type; the edge checks only the JSON limits and drops any other
 * member (a token's mask, metadata or container are chosen when the intent becomes a token).
 */
export class CreateTokenIntentRequest {
  static readonly opaqueFields: readonly string[] = ['data'];

  @ApiProperty({ enum: TOKEN_TYPE_NAMES, example: 'card', description: 'the type of the token the intent is meant to become; decides how data is validated' })
  @Allow()
  type!: string;

  @ApiAnyJson({
    required: true,
    description: 'validated as the data of a token of this type; at most 256 KiB serialized; stored encrypted, never returned',
    example: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' },
  })
  @Allow()
  data!: unknown;
}

/** `card` of a card intent: what can be told of the number without a BIN database (docs/token-intents.md). */
export class CardDetailsView {
  @ApiProperty({ example: '42424242', description: 'the first 8 digits of a number of 16 or more digits, else the first 6' })
  bin!: string;

  @ApiProperty({ example: '4242' })
  last4!: string;

  @ApiPropertyOptional({ example: 12 })
  expiration_month?: number;

  @ApiPropertyOptional({ example: 2030 })
  expiration_year?: number;

  @ApiPropertyOptional({
    example: 'visa',
    description: 'from the number prefix: visa, mastercard, american-express, discover, diners-club, jcb, unionpay, maestro; absent when none matches',
  })
  brand?: string;
}

/** `bank` of a bank intent. */
export class BankDetailsView {
  @ApiProperty({ example: '110000000' })
  routing_number!: string;

  @ApiProperty({ example: '6789' })
  account_number_last4!: string;
}

/** A token intent as every reply shows it: never its data. */
export class TokenIntentView extends TenantResource {
  @ApiProperty({ example: 'card' })
  type!: string;

  @ApiProperty({ description: 'the fingerprint the token made of this intent gets with the default fingerprint expression' })
  fingerprint!: string;

  @ApiPropertyOptional({ type: CardDetailsView, description: 'card intents only' })
  card?: CardDetailsView;

  @ApiPropertyOptional({ type: BankDetailsView, description: 'bank intents only' })
  bank?: BankDetailsView;

  @ApiPropertyOptional({ format: 'uuid', description: 'the application that created the intent' })
  created_by?: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', description: '24 hours after created_at' })
  expires_at!: string;
}
