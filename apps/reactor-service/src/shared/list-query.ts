import {
  FieldErrors,
  isUuid,
  ProblemError,
  decodeCursor,
  encodeCursor,
  parsePageRequest,
  type Cursor,
  type Page,
  type PageRequest,
} from '@coffer/contracts';

export function many(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/**
 * conventions §4: `name` is a case-insensitive substring match where `*` matches any run of characters.
 * Returns an ILIKE pattern (backslash escapes), or undefined when there is no filter.
 */
export function namePattern(query: Record<string, unknown>): string | undefined {
  const name = many(query['name'])[0];
  if (name === undefined || name === '') return undefined;
  const escaped = name.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
  return `%${escaped}%`;
}

/** Either page/size (with totals) or the cursor form (`start`), as conventions §4. */
export type ListWindow = { kind: 'offset'; req: PageRequest; offset: number } | { kind: 'cursor'; req: PageRequest; cursor: Cursor | null };

export function parseListWindow(query: Record<string, unknown>): ListWindow {
  const errors = new FieldErrors();
  const req = parsePageRequest(query, errors);
  errors.throwIfAny('The query is invalid');
  if (req.start === undefined) return { kind: 'offset', req, offset: (req.page - 1) * req.size };
  const cursor = decodeCursor(req.start);
  if (cursor === undefined || (cursor && !isUuid(cursor.id))) throw new ProblemError(400, 'The query is invalid', { start: ['is not a valid cursor'] });
  return { kind: 'cursor', req, cursor };
}

export interface Ordered {
  id: string;
  createdAt: Date;
}

/** Page of an offset window. */
export function offsetResult<R, V>(rows: R[], total: number, req: PageRequest, view: (r: R) => V): Page<V> {
  return {
    pagination: {
      total_items: total,
      page_number: req.page,
      page_size: req.size,
      total_pages: req.size === 0 ? 0 : Math.ceil(total / req.size),
    },
    data: rows.map(view),
  };
}

/** Page of a cursor window: `fetched` holds up to size + 1 rows; the extra one says whether there is a next page. */
export function cursorResult<R extends Ordered, V>(fetched: R[], req: PageRequest, view: (r: R) => V): Page<V> {
  const rows = fetched.slice(0, req.size);
  const pagination: Page<V>['pagination'] = { page_size: req.size };
  const last = rows[rows.length - 1];
  if (fetched.length > req.size && last) pagination.next = encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id });
  return { pagination, data: rows.map(view) };
}
