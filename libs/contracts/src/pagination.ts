import { FieldErrors } from './problem/problem';

/** conventions §4: page ≥ 1 (default 1), size 0–100 (default 20), or the cursor form with `start`. */
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
 * pages are a 400 (conventions §11: every limit is enforced); deep lists use the cursor form (`start`).
 */
export const MAX_PAGE = 10_000_000;
export const MAX_PAGE_SIZE = 100;

export function parsePageRequest(query: Record<string, unknown>, errors: FieldErrors): PageRequest {
  const one = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
  const pageRaw = one(query['page']);
  const sizeRaw = one(query['size']);
  const startRaw = one(query['start']);
  let page = 1;
  let size = 20;
  if (pageRaw !== undefined) {
    const text = String(pageRaw);
    const n = DIGITS.test(text) ? Number(text) : NaN;
    if (!(n >= 1 && n <= MAX_PAGE)) errors.add('page', `must be an integer between 1 and ${MAX_PAGE}`);
    else page = n;
  }
  if (sizeRaw !== undefined) {
    const text = String(sizeRaw);
    const n = DIGITS.test(text) ? Number(text) : NaN;
    if (!(n >= 0 && n <= MAX_PAGE_SIZE)) errors.add('size', `must be an integer between 0 and ${MAX_PAGE_SIZE}`);
    else size = n;
  }
  const req: PageRequest = { page, size };
  if (startRaw !== undefined) {
    if (pageRaw !== undefined) errors.add('start', 'cannot be combined with page');
    req.start = String(startRaw);
  }
  return req;
}

export function offsetPage<T>(data: T[], total: number, req: PageRequest): Page<T> {
  return {
    pagination: {
      total_items: total,
      page_number: req.page,
      page_size: req.size,
      total_pages: req.size === 0 ? 0 : Math.ceil(total / req.size),
    },
    data,
  };
}

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
    if (typeof createdAt === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(createdAt)) && id.length <= 400 && !id.includes('\u0000') && !createdAt.includes('\u0000'))
      return { createdAt, id };
  } catch {
    /* fall through */
  }
  return undefined;
}
