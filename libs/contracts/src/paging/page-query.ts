import { ApiPropertyOptional } from '../openapi/property-docs';

/**
 * docs/api-reference.md paging of every list: `page` (≥ 1, default 1) and `size` (0–100, default 20), or the cursor form
 * `start` (opaque; empty for the first page) instead of `page`. Digits only: `1e3`, `1.5`, ` 1` are 400s.
 */
export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10_000_000, default: 1 })
  page?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, default: 20 })
  size?: string;

  @ApiPropertyOptional({ description: 'cursor form: `pagination.next` of the previous page ("" for the first); not with page' })
  start?: string;
}
