import { ApiPropertyOptional } from '../openapi/property-docs';
import { PageQuery } from '../paging/page-query';

/**
 * GET /tokens filters: repeatable `id` and `type`, and `metadata.<key>=<value>` (case-insensitive exact match, ANDed;
 * a repeated key counts once), besides paging.
 */
export class ListTokensQuery extends PageQuery {
  @ApiPropertyOptional({ type: [String], description: 'token ids (repeatable: ?id=a&id=b)' })
  id?: string | string[];

  @ApiPropertyOptional({ type: [String], description: 'token types (repeatable)' })
  type?: string | string[];
}

/** GET /v2/tokens: cursor pages only. */
export class ListTokensV2Query {
  @ApiPropertyOptional({ type: [String], description: 'token type (repeatable)' })
  type?: string | string[];

  @ApiPropertyOptional({ description: 'exact container, or a prefix ending in *', example: '/pci/*' })
  container?: string;

  @ApiPropertyOptional()
  fingerprint?: string;

  @ApiPropertyOptional({ description: 'a JSON object of strings: case-insensitive exact match, ANDed', example: '{"customer":"c-42"}' })
  metadata?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, default: 20 })
  size?: string;

  @ApiPropertyOptional({ description: 'pagination.next of the previous page' })
  start?: string;
}
