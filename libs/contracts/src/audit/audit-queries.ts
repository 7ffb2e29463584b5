import { ApiPropertyOptional } from '../openapi/property-docs';
import { PageQuery } from '../paging/page-query';
import { AUDIT_ENTITY_TYPES } from './audit';
import { ACTOR_TYPES } from '../actors/actor';

/** GET /logs filters, besides paging. */
export class ListLogsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: AUDIT_ENTITY_TYPES.map((t) => t.value), description: 'values of GET /logs/entity-types' })
  entity_type?: string;

  @ApiPropertyOptional()
  entity_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'ISO 8601: events at or after' })
  start_date?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'ISO 8601: events at or before' })
  end_date?: string;

  @ApiPropertyOptional({ description: "the actor's id: an application, session or user id (a person's acts), or the operator's name" })
  actor_id?: string;

  @ApiPropertyOptional({ enum: ACTOR_TYPES })
  actor_type?: string;

  @ApiPropertyOptional({ description: 'the trace id of the request that did it (the response header of that request)' })
  trace_id?: string;

  @ApiPropertyOptional({ example: 'update', description: 'the act: create, read, update, delete, use, search, invoke, regenerate, authorize, rotate, refuse' })
  operation?: string;
}
