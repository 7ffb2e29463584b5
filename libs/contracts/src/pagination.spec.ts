import { MAX_PAGE, decodeCursor, encodeCursor, parsePageRequest } from './pagination';
import { FieldErrors } from './problem/problem';

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
});
