import { FieldErrors, ProblemError } from './problem/problem';

/** docs/api-reference.md: page ≥ 1 (default 1), size 0–100 (default 20), or the cursor form with `start`. */
export interface PageRequest {
  page: number;
  size: number;
  /** cursor form: opaque; '' asks for the first page */
  start?: string;
}

export interface PagePagination {
  total_items?: number;
  page_number?: number;
  page_size: number;
  total_pages?: number;
  next?: string;
}

export interface Page<T> {
  pagination: PagePagination;
  data: T[];
}

/** Digits only: no sign, exponent, decimal point, hex or white space (`1e3`, `1.5`, `0x10`, ` 1` are 400s). */
const DIGITS = /^\d+$/;

/**
 * The largest `page` (with `size` at most 100, the offset stays below 2^31, the widest any repository takes): deeper
 * pages are a 400 (docs/api-reference.md: every limit is enforced); deep lists use the cursor form (`start`).
 */
export const MAX_PAGE = 10_000_000;
export const MAX_PAGE_SIZE = 100;

const DEFAULT_PAGE_SIZE = 20;
const PAGE_MESSAGE = `must be an integer between 1 and ${MAX_PAGE}`;
const SIZE_MESSAGE = `must be an integer between 0 and ${MAX_PAGE_SIZE}`;

/** Paging values arrive as text in a query (digits only) and as JSON integers in a body. */
export type PageForm = 'query' | 'body';

const lastOf = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);

function wholeNumber(raw: unknown, form: PageForm, min: number, max: number): number | undefined {
  const n = form === 'query' ? (DIGITS.test(String(raw)) ? Number(raw) : NaN) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** `size`: 0–100, 20 when absent; anything else is a field error (and the default). */
export function parsePageSize(raw: unknown, errors: FieldErrors, form: PageForm): number {
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  const size = wholeNumber(raw, form, 0, MAX_PAGE_SIZE);
  if (size === undefined) errors.add('size', SIZE_MESSAGE);
  return size ?? DEFAULT_PAGE_SIZE;
}

function parsePageNumber(raw: unknown, errors: FieldErrors, form: PageForm): number {
  if (raw === undefined) return 1;
  const page = wholeNumber(raw, form, 1, MAX_PAGE);
  if (page === undefined) errors.add('page', PAGE_MESSAGE);
  return page ?? 1;
}

/** The query form (`?page=&size=&start=`): text values, the last of repeated ones counts. */
export function parsePageRequest(query: Record<string, unknown>, errors: FieldErrors): PageRequest {
  const pageRaw = lastOf(query['page']);
  const startRaw = lastOf(query['start']);
  const req: PageRequest = { page: parsePageNumber(pageRaw, errors, 'query'), size: parsePageSize(lastOf(query['size']), errors, 'query') };
  if (startRaw !== undefined) {
    if (pageRaw !== undefined) errors.add('start', 'cannot be combined with page');
    req.start = String(startRaw);
  }
  return req;
}

/** The body form (POST /tokens/search `{page, size}`): JSON integers with the bounds and messages of the query form. */
export function parsePageBody(body: Record<string, unknown>, errors: FieldErrors): PageRequest {
  return { page: parsePageNumber(body['page'], errors, 'body'), size: parsePageSize(body['size'], errors, 'body') };
}

/** Rows to skip for an offset page. */
export function pageOffset(req: PageRequest): number {
  return (req.page - 1) * req.size;
}

/** Either page/size (with totals) or the cursor form (`start`), as docs/api-reference.md. */
export type ListWindow = { kind: 'offset'; req: PageRequest; offset: number } | { kind: 'cursor'; req: PageRequest; cursor: Cursor | null };

/**
 * The paging of a list query, or a 400 naming the bad fields. `isId` narrows which cursor ids are possible (a cursor
 * holding an id the table cannot hold is refused like any other bad cursor, not sent to the database).
 */
export function parseListWindow(query: Record<string, unknown>, isId: (id: string) => boolean = () => true): ListWindow {
  const errors = new FieldErrors();
  const req = parsePageRequest(query, errors);
  errors.throwIfAny('The query is invalid');
  if (req.start === undefined) return { kind: 'offset', req, offset: pageOffset(req) };
  const cursor = decodeCursor(req.start);
  if (cursor === undefined || (cursor && !isId(cursor.id))) throw new ProblemError(400, 'The query is invalid', { start: ['is not a valid cursor'] });
  return { kind: 'cursor', req, cursor };
}

/** The `pagination` of an offset page: totals and page numbers. */
export function offsetPagination(total: number, req: PageRequest): PagePagination {
  return {
    total_items: total,
    page_number: req.page,
    page_size: req.size,
    total_pages: req.size === 0 ? 0 : Math.ceil(total / req.size),
  };
}

export function offsetPage<T>(data: T[], total: number, req: PageRequest): Page<T> {
  return { pagination: offsetPagination(total, req), data };
}

/** One page of a stored list: its rows and how many the whole list has. */
export interface StoredPage<R> {
  rows: R[];
  total: number;
}

/**
 * A list served in offset pages (`?page=&size=`): the paging and the list's own filters are read together, so one 400
 * names every bad field, then one page is read and each row shown. `filterOf` adds its errors to `errors`.
 */
export async function offsetList<F, R, V>(
  query: Record<string, unknown>,
  filterOf: (query: Record<string, unknown>, errors: FieldErrors) => F,
  read: (offset: number, size: number, filter: F) => Promise<StoredPage<R>>,
  view: (row: R) => V,
): Promise<Page<V>> {
  const errors = new FieldErrors();
  const req = parsePageRequest(query, errors);
  const filter = filterOf(query, errors);
  errors.throwIfAny('The query is invalid');
  const { rows, total } = await read(pageOffset(req), req.size, filter);
  return offsetPage(rows.map(view), total, req);
}

/** For a list without filters of its own. */
export const noFilter = (): undefined => undefined;

/** Cursor over (created_at desc, id desc): opaque to clients. */
export interface Cursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');
}

export function decodeCursor(start: string): Cursor | null | undefined {
  if (start === '') return null;
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(start, 'base64url').toString('utf8'));
    // the id goes into a query: PostgreSQL refuses text holding NUL, and no id is longer than 400 characters
    if (
      typeof createdAt === 'string' &&
      typeof id === 'string' &&
      !Number.isNaN(Date.parse(createdAt)) &&
      id.length <= 400 &&
      !id.includes('\u0000') &&
      !createdAt.includes('\u0000')
    )
      return { createdAt, id };
  } catch {
    /* fall through */
  }
  return undefined;
}

/**
 * A cursor page: `fetched` holds up to size + 1 rows (newest first); the extra one says whether there is a next page,
 * whose cursor is the position of the last row kept. The caller maps the rows it keeps (`data`) to views.
 */
export function cursorPage<R>(fetched: R[], size: number, positionOf: (row: R) => Cursor): Page<R> {
  const data = fetched.slice(0, size);
  const pagination: PagePagination = { page_size: size };
  const last = data[data.length - 1];
  if (fetched.length > size && last) pagination.next = encodeCursor(positionOf(last));
  return { pagination, data };
}
