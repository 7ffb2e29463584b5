import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { EVENT_TYPES } from '../events/events';
import { PageOf } from '../paging/page-of';
import { ApiResourceStamps, StampedTenantResource } from '../resource-stamps';
import { RequiredText } from '../validation/text-fields';

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
/** At most this many webhooks per tenant, as the mirrored service allows. */
export const MAX_WEBHOOKS_PER_TENANT = 5;

const EVENTS_MESSAGE = `each must be one of ${EVENT_TYPES.join(', ')}`;

/** POST /webhooks. The URL obeys the callback egress policy (docs/webhooks.md). */
export class CreateWebhookRequest {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'ledger sync' })
  @RequiredText(200)
  name!: string;

  @ApiProperty({ maxLength: 2048, example: 'https://hooks.example.com/coffer' })
  @RequiredText(2048)
  url!: string;

  @ApiPropertyOptional({ maxLength: 320, example: 'ops@example.com', description: 'told when the webhook is disabled after sustained failure' })
  @IsOptional()
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(320, { message: 'must be at most 320 characters' })
  notify_email?: string;

  @ApiProperty({ type: [String], example: ['token.created'], description: 'event types (GET /webhooks/event-types)' })
  @IsArray({ message: 'is required and must be an array of event types' })
  @ArrayMinSize(1, { message: 'must name at least one event type' })
  @ArrayMaxSize(EVENT_TYPES.length, { message: `must name at most ${EVENT_TYPES.length} event types` })
  @IsIn(EVENT_TYPES as unknown as string[], { each: true, message: EVENTS_MESSAGE })
  events!: string[];
}

/** PUT /webhooks/{id}: the whole webhook again; `status` re-enables (or disables) it. */
export class UpdateWebhookRequest extends CreateWebhookRequest {
  @ApiPropertyOptional({ enum: WEBHOOK_STATUSES, description: 'absent: unchanged' })
  @IsOptional()
  @IsIn(WEBHOOK_STATUSES as unknown as string[], { message: 'must be enabled or disabled' })
  status?: WebhookStatus;
}

@ApiResourceStamps({ createdBy: 'required' })
export class WebhookView extends StampedTenantResource {
  declare created_by: string;

  @ApiProperty({ enum: WEBHOOK_STATUSES })
  status!: WebhookStatus;
  @ApiProperty()
  name!: string;
  @ApiProperty()
  url!: string;
  @ApiPropertyOptional()
  notify_email?: string;
  @ApiProperty({ type: [String] })
  events!: string[];
}

/**
 * The reply to POST /webhooks: the webhook and its own Standard Webhooks signing secret, shown this once (stored
 * sealed; a Coffer extension, since the mirrored service signs with one key of its own for everyone).
 */
export class CreatedWebhookView extends WebhookView {
  @ApiProperty({
    description:
      'The webhook’s signing secret, `whsec_<base64 of 32 random bytes>`; shown only in this reply. Its deliveries carry `webhook-signature: v1,<base64 HMAC-SHA256>` keyed with the decoded bytes (docs/webhooks.md).',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  signing_secret!: string;
}

export class WebhookPage extends PageOf(WebhookView) {}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export class WebhookDeliveryView {
  @ApiProperty({ format: 'uuid', description: 'the webhook-id header of its attempts' })
  id!: string;
  @ApiProperty({ format: 'uuid' })
  webhook_id!: string;
  @ApiProperty({ format: 'uuid' })
  event_id!: string;
  @ApiProperty()
  event_type!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES })
  status!: string;
  @ApiProperty()
  attempts!: number;
  @ApiPropertyOptional()
  last_error?: string;
  @ApiPropertyOptional({ description: "the latest attempt's HTTP status; absent before the first attempt or when no answer came" })
  last_status_code?: number;
  @ApiPropertyOptional({ description: "the latest attempt's duration in milliseconds" })
  last_duration_ms?: number;
  @ApiProperty({ format: 'date-time' })
  created_at!: string;
  @ApiPropertyOptional({ format: 'date-time' })
  delivered_at?: string;
}

export class WebhookDeliveryPage extends PageOf(WebhookDeliveryView) {}

/** {webhookId, deliveryId} */
export class WebhookDeliveryMessage {
  @IsString()
  webhookId!: string;
  @IsString()
  deliveryId!: string;
}

/** {webhookId, query} */
export class WebhookDeliveriesMessage {
  @IsString()
  webhookId!: string;
  @IsObject()
  query!: Record<string, unknown>;
}
