import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';

/** docs/api-reference.md: the pagination of an offset page (`page`, `size`). */
export class OffsetPagination {
  @ApiProperty({ type: 'integer', example: 1 })
  total_items!: number;

  @ApiProperty({ type: 'integer', example: 1 })
  page_number!: number;

  @ApiProperty({ type: 'integer', example: 20 })
  page_size!: number;

  @ApiProperty({ type: 'integer', example: 1 })
  total_pages!: number;
}

/** docs/api-reference.md: the pagination of a cursor page (`start`); `next` is absent on the last page. */
export class CursorPagination {
  @ApiProperty({ type: 'integer', example: 20 })
  page_size!: number;

  @ApiPropertyOptional({ description: 'pass as `start` for the next page; absent on the last page' })
  next?: string;
}

/**
 * The lists of docs/api-reference.md answer either form: offset pagination with `page` (totals), or cursor pagination
 * with `start` (`page_size` and `next`).
 */
export class AnyPagination {
  @ApiPropertyOptional({ type: 'integer' })
  total_items?: number;

  @ApiPropertyOptional({ type: 'integer' })
  page_number?: number;

  @ApiProperty({ type: 'integer', example: 20 })
  page_size!: number;

  @ApiPropertyOptional({ type: 'integer' })
  total_pages?: number;

  @ApiPropertyOptional({ description: 'cursor form only: pass as `start` for the next page; absent on the last page' })
  next?: string;
}
