import { ApiPropertyOptional } from '../openapi/property-docs';
import { PageQuery } from '../paging/page-query';

/** GET /reactor-formulas: `name` is a case-insensitive substring match; `*` matches any run of characters. */
export class ListReactorFormulasQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'case-insensitive substring; * matches any run of characters', example: 'charge*' })
  name?: string;
}

/** GET /reactors: `id` repeats; `name` as for formulas. */
export class ListReactorsQuery extends ListReactorFormulasQuery {
  @ApiPropertyOptional({ type: [String], description: 'reactor ids (repeatable)' })
  id?: string | string[];
}
