import {
  MAX_PAGE,
  cursorPage,
  decodeCursor,
  encodeCursor,
  noFilter,
  offsetList,
  offsetPage,
  parseListWindow,
  parsePageBody,
  parsePageRequest,
  parsePageSize,
} from './pagination';
import { FieldErrors, ProblemError } from './problem/problem';

function parse(query: Record<string, unknown>) {
  const errors = new FieldErrors();
  const req = parsePageRequest(query, errors);
  return { req, errors: errors.toRecord() };
}

describe('paging', () => {
  it('defaults to page 1 of 20, takes the last of repeated values', () => {
    expect(parse({})).toEqual({ req: { page: 1, size: 20 }, errors: {} });
    expect(parse({ page: ['1', '3'], size: '0' }).req).toEqual({ page: 3, size: 0 });
    expect(parse({ page: String(MAX_PAGE), size: '100' })).toEqual({ req: { page: MAX_PAGE, size: 100 }, errors: {} });
  });

  it('refuses huge, signed, fractional, exponent, hex and padded values', () => {
    for (const page of ['99999999999999999999', '9007199254740993', String(MAX_PAGE + 1), '0', '-1', '+1', '1.5', '1e3', '0x10', ' 1', '', 'NaN', 'Infinity'])
      expect({ page, errors: Object.keys(parse({ page }).errors) }).toEqual({ page, errors: ['page'] });
    for (const size of ['99999999999999999999', '101', '-0', '-1', '2.0', '1e1', 'abc'])
      expect({ size, errors: Object.keys(parse({ size }).errors) }).toEqual({ size, errors: ['size'] });
  });

  it('never lets a decoded cursor carry NUL or an impossible id into a query', () => {
    const at = new Date().toISOString();
    expect(decodeCursor(encodeCursor({ createdAt: at, id: 'tok_1' }))).toEqual({ createdAt: at, id: 'tok_1' });
    expect(decodeCursor('')).toBeNull();
    expect(decodeCursor(encodeCursor({ createdAt: at, id: 'a\u0000b' }))).toBeUndefined();
    expect(decodeCursor(encodeCursor({ createdAt: at, id: 'x'.repeat(401) }))).toBeUndefined();
    expect(decodeCursor('\u0000')).toBeUndefined();
  });

  it('reads the body form (search) with the bounds and messages of the query form', () => {
    const body = (b: Record<string, unknown>) => {
      const errors = new FieldErrors();
      const req = parsePageBody(b, errors);
      return { req, errors: errors.toRecord() };
    };
    expect(body({})).toEqual({ req: { page: 1, size: 20 }, errors: {} });
    expect(body({ page: 3, size: 0 })).toEqual({ req: { page: 3, size: 0 }, errors: {} });
    for (const page of ['1', 0, 1.5, null, MAX_PAGE + 1]) expect(Object.keys(body({ page }).errors)).toEqual(['page']);
    for (const size of ['1', -1, 101, 2.5, null]) expect(body({ size }).errors).toEqual({ size: ['must be an integer between 0 and 100'] });
    expect(body({ page: 0 }).errors).toEqual({ page: [`must be an integer between 1 and ${MAX_PAGE}`] });
  });

  it('turns a list query into an offset or a cursor window, and a bad one into a 400', () => {
    expect(parseListWindow({ page: '3', size: '10' })).toEqual({ kind: 'offset', req: { page: 3, size: 10 }, offset: 20 });
    expect(parseListWindow({ start: '' })).toEqual({ kind: 'cursor', req: { page: 1, size: 20, start: '' }, cursor: null });
    const at = new Date().toISOString();
    const start = encodeCursor({ createdAt: at, id: 'tok_1' });
    expect(parseListWindow({ start })).toMatchObject({ kind: 'cursor', cursor: { createdAt: at, id: 'tok_1' } });
    const problem = (query: Record<string, unknown>, isId?: (id: string) => boolean) => {
      try {
        parseListWindow(query, isId);
      } catch (err) {
        return err instanceof ProblemError ? { status: err.problem.status, errors: err.problem.errors } : err;
      }
      return undefined;
    };
    expect(problem({ start, page: '1' })).toEqual({ status: 400, errors: { start: ['cannot be combined with page'] } });
    expect(problem({ start: 'nonsense' })).toEqual({ status: 400, errors: { start: ['is not a valid cursor'] } });
    expect(problem({ start }, (id) => id.startsWith('x'))).toEqual({ status: 400, errors: { start: ['is not a valid cursor'] } });
  });

  it('makes offset and cursor pages', () => {
    expect(offsetPage(['a'], 41, { page: 2, size: 20 })).toEqual({
      pagination: { total_items: 41, page_number: 2, page_size: 20, total_pages: 3 },
      data: ['a'],
    });
    expect(offsetPage([], 5, { page: 1, size: 0 }).pagination.total_pages).toBe(0);
    const rows = [1, 2, 3].map((n) => ({ id: `t${n}`, at: `2026-01-0${n}T00:00:00.000Z` }));
    const position = (r: { id: string; at: string }) => ({ createdAt: r.at, id: r.id });
    const more = cursorPage(rows, 2, position);
    expect(more.data).toEqual(rows.slice(0, 2));
    expect(decodeCursor(more.pagination.next as string)).toEqual({ createdAt: rows[1]?.at, id: 't2' });
    expect(cursorPage(rows, 3, position)).toEqual({ pagination: { page_size: 3 }, data: rows });
  });

  it('reads a size alone in either form (the v2 cursor lists)', () => {
    const size = (raw: unknown, form: 'query' | 'body') => {
      const errors = new FieldErrors();
      return { size: parsePageSize(raw, errors, form), errors: errors.toRecord() };
    };
    expect(size(undefined, 'query')).toEqual({ size: 20, errors: {} });
    expect(size('7', 'query')).toEqual({ size: 7, errors: {} });
    expect(size(7, 'body')).toEqual({ size: 7, errors: {} });
    expect(size('7', 'body').errors).toEqual({ size: ['must be an integer between 0 and 100'] });
    expect(size('1e1', 'query').errors).toEqual({ size: ['must be an integer between 0 and 100'] });
  });

  describe('offsetList', () => {
    const evenOnly = (query: Record<string, unknown>, errors: FieldErrors): number | undefined => {
      if (query['n'] === undefined) return undefined;
      const n = Number(query['n']);
      if (n % 2) errors.add('n', 'must be even');
      return n;
    };

    it('reads the page its query asks for, with the filter, and shows each row', async () => {
      const read = jest.fn(async (offset: number, size: number, n: number | undefined) => ({ rows: [offset, size, n ?? -1], total: 42 }));
      await expect(offsetList({ page: '3', size: '5', n: '4' }, evenOnly, read, (row) => `row ${row}`)).resolves.toEqual({
        pagination: { total_items: 42, page_number: 3, page_size: 5, total_pages: 9 },
        data: ['row 10', 'row 5', 'row 4'],
      });
      expect(read).toHaveBeenCalledWith(10, 5, 4);
    });

    it('refuses bad paging and a bad filter together in one 400, reading nothing', async () => {
      const read = jest.fn();
      const refused = await offsetList({ page: '0', n: '3' }, evenOnly, read, (row) => row).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ProblemError);
      expect((refused as ProblemError).problem).toMatchObject({ status: 400, detail: 'The query is invalid' });
      expect(Object.keys((refused as ProblemError).problem.errors ?? {}).sort()).toEqual(['n', 'page']);
      expect(read).not.toHaveBeenCalled();
    });

    it('reads a list without filters of its own', async () => {
      const read = jest.fn(async () => ({ rows: ['a'], total: 1 }));
      await expect(offsetList({}, noFilter, read, (row) => row)).resolves.toMatchObject({ data: ['a'] });
      expect(read).toHaveBeenCalledWith(0, 20, undefined);
    });
  });
});
