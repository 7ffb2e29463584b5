import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';
import { TenantResource } from '../tenant-resource';
import { PageOf } from '../paging/page-of';
import { ACTOR_TYPES, type ActorType } from '../actors/actor';

/** The kinds of entity audit events name (`GET /logs?entity_type=`), as `GET /logs/entity-types` lists them. */
export const AUDIT_ENTITY_TYPES = [
  { value: 'token', display_name: 'Token' },
  { value: 'token_intent', display_name: 'Token intent' },
  { value: 'reactor', display_name: 'Reactor' },
  { value: 'reactor_formula', display_name: 'Reactor formula' },
  { value: 'application', display_name: 'Application' },
  { value: 'application_key', display_name: 'Application key' },
  { value: 'session', display_name: 'Session' },
  { value: 'tenant', display_name: 'Tenant' },
  { value: 'webhook_secret', display_name: 'Webhook secret' },
  { value: 'webhook', display_name: 'Webhook' },
  { value: 'webhook_delivery', display_name: 'Webhook delivery' },
  { value: 'proxy', display_name: 'Proxy request' },
  { value: 'authentication', display_name: 'Authentication (refused)' },
  { value: 'data_key', display_name: 'Data keys (operator)' },
  { value: 'audit_log', display_name: 'Audit log (operator)' },
  { value: 'audit_retention', display_name: 'Audit retention (operator)' },
  { value: 'tenant_member', display_name: 'Tenant member' },
  { value: 'tenant_invitation', display_name: 'Tenant invitation' },
  { value: 'console_session', display_name: 'Console sign-in' },
] as const;

export class LogEntityTypeView {
  @ApiProperty({ example: 'token' })
  value!: string;

  @ApiProperty({ example: 'Token' })
  display_name!: string;
}

/** One audit event of GET /logs: ids and names only, never sensitive data. */
export class AuditEventView extends TenantResource {
  @ApiPropertyOptional({ format: 'uuid' })
  actor_application_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'the same application, under the name clients of the mirrored service read' })
  actor_id?: string;

  @ApiPropertyOptional({
    enum: ACTOR_TYPES,
    description: '`system`: Coffer itself (webhook-dispatcher disabling a webhook)',
  })
  actor_type?: ActorType;

  @ApiPropertyOptional({ description: "the actor's name where known (the operator's)" })
  actor_name?: string;

  @ApiProperty({ example: 'Token created' })
  message!: string;

  @ApiProperty({ example: 'create' })
  operation!: string;

  @ApiProperty({ example: 'token' })
  entity_type!: string;

  @ApiProperty()
  entity_id!: string;

  @ApiPropertyOptional()
  trace_id?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { name: { old: 'a', new: 'b' }, key: { redacted: true } },
    description: 'what changed: old and new values of names and settings; secrets only as {redacted: true}',
  })
  changes?: unknown;

  @ApiPropertyOptional({ description: 'refused authentications: the client address' })
  source?: string;

  @ApiPropertyOptional({ description: 'refused authentications: how many this record (one per minute, reason and source) stands for' })
  count?: number;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export class AuditEventPage extends PageOf(AuditEventView) {}
