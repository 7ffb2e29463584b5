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

const INTEGER = /^-?\d+$/;

export function parsePageRequest(query: Record<string, unknown>, errors: FieldErrors): PageRequest {
  const one = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
  const pageRaw = one(query['page']);
  const sizeRaw = one(query['size']);
  const startRaw = one(query['start']);
  let page = 1;
  let size = 20;
  if (pageRaw !== undefined) {
    if (!INTEGER.test(String(pageRaw)) || Number(pageRaw) < 1) errors.add('page', 'must be an integer ≥ 1');
    else page = Number(pageRaw);
  }
  if (sizeRaw !== undefined) {
    if (!INTEGER.test(String(sizeRaw)) || Number(sizeRaw) < 0 || Number(sizeRaw) > 100)
      errors.add('size', 'must be an integer between 0 and 100');
    else size = Number(sizeRaw);
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
    if (typeof createdAt === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(createdAt)))
      return { createdAt, id };
  } catch {
    /* fall through */
  }
  return undefined;
}
