import { ApiProperty } from './openapi/property-docs';

/**
 * The head of the view of a resource a tenant owns: its id and its tenant's, first in the OpenAPI schema (a base
 * class's properties come before the view's own).
 */
export abstract class TenantResource {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  tenant_id!: string;
}
