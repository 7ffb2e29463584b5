import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AnyPagination } from '../paging/page-views';

/** The kinds of entity audit events name (`GET /logs?entity_type=`), as `GET /logs/entity-types` lists them. */
export const AUDIT_ENTITY_TYPES = [
  { value: 'token', display_name: 'Token' },
  { value: 'reactor', display_name: 'Reactor' },
] as const;

export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number]['value'];

export class LogEntityTypeView {
  @ApiProperty({ example: 'token' })
  value!: string;

  @ApiProperty({ example: 'Token' })
  display_name!: string;
}

/** One audit event of GET /logs: ids and names only, never sensitive data. */
export class AuditEventView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  tenant_id!: string;

  @ApiPropertyOptional({ format: 'uuid' })
  actor_application_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'the same application, under the name clients of the mirrored service read' })
  actor_id?: string;

  @ApiPropertyOptional({ enum: ['application'] })
  actor_type?: 'application';

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

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export class AuditEventPage {
  @ApiProperty({ type: () => AnyPagination })
  pagination!: AnyPagination;

  @ApiProperty({ type: () => [AuditEventView] })
  data!: AuditEventView[];
}
