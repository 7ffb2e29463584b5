import { ApiPropertyOptional } from '../openapi/property-docs';
import { APPLICATION_TYPES } from '../auth/principal';
import { PageQuery } from '../paging/page-query';

/** GET /applications: repeatable `id` (UUIDs) and `type`, at most 100 values each, besides paging. */
export class ListApplicationsQuery extends PageQuery {
  @ApiPropertyOptional({ type: [String], description: 'application ids (repeatable)' })
  id?: string | string[];

  @ApiPropertyOptional({ enum: APPLICATION_TYPES, isArray: true, description: 'application types (repeatable)' })
  type?: string | string[];
}
