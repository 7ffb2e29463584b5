import { Type } from '@nestjs/common';
import { ApiProperty } from '../openapi/property-docs';
import { AnyPagination } from './page-views';

/**
 * The body of a list (docs/api-reference.md): `{ pagination, data }`. A page class extends what this returns, so the
 * OpenAPI schema keeps the page class's own name: `export class ReactorPage extends PageOf(ReactorView) {}`.
 * `pagination` is AnyPagination (either form) unless the list answers one form only (OffsetPagination, CursorPagination).
 */
export function PageOf<T, P = AnyPagination>(item: Type<T>, pagination: Type<P> = AnyPagination as Type<P>) {
  class Page {
    @ApiProperty({ type: () => pagination })
    pagination!: P;

    @ApiProperty({ type: () => [item] })
    data!: T[];
  }
  return Page;
}
