import { ApiProperty, ApiPropertyOptional } from './openapi/property-docs';
import { TenantResource } from './tenant-resource';

/**
 * The fields that end the view of a resource its users create and change, for the type: a view extends this (the
 * fields are only declared, nothing is emitted) and carries @ApiResourceStamps() for the OpenAPI schema.
 */
export abstract class ResourceStamps {
  declare created_by?: string;
  declare created_at: string;
  declare modified_by?: string;
  declare modified_at?: string;
}

/** The view of a resource a tenant owns, created and changed by its users: the TenantResource head, the stamps at the end. */
export abstract class StampedTenantResource extends TenantResource {
  declare created_by?: string;
  declare created_at: string;
  declare modified_by?: string;
  declare modified_at?: string;
}

/**
 * Documents the fields that end the view of a resource its users create and change (`created_by`, `created_at`,
 * `modified_by`, `modified_at`): the class extends ResourceStamps (or StampedTenantResource) and carries this decorator. A class decorator runs
 * after the property decorators, so the four come last in the OpenAPI schema (their type is given: a field without a
 * decorator of its own has no design:type metadata).
 */
export function ApiResourceStamps(options: { createdBy?: 'optional' | 'required' } = {}): ClassDecorator {
  // created_by is required where every row has one (a webhook is always created by someone)
  const createdBy = options.createdBy === 'required' ? ApiProperty : ApiPropertyOptional;
  return (target) => {
    createdBy({ type: String, format: 'uuid' })(target.prototype, 'created_by');
    ApiProperty({ type: String, format: 'date-time' })(target.prototype, 'created_at');
    ApiPropertyOptional({ type: String, format: 'uuid' })(target.prototype, 'modified_by');
    ApiPropertyOptional({ type: String, format: 'date-time' })(target.prototype, 'modified_at');
  };
}

/** The stamps of a stored row (its camelCase columns). */
export interface RowStamps {
  createdBy: string | null;
  modifiedBy: string | null;
  modifiedAt: Date | null;
}

/** Adds to a view built from `row` the stamps it has, in this order: created_by, modified_by, modified_at. */
export function withStamps<V extends { created_by?: string; modified_by?: string; modified_at?: string }>(view: V, row: RowStamps): V {
  if (row.createdBy) view.created_by = row.createdBy;
  if (row.modifiedBy) view.modified_by = row.modifiedBy;
  if (row.modifiedAt) view.modified_at = row.modifiedAt.toISOString();
  return view;
}
