import { describe, expect, it } from 'vitest';
import { CSV_CELL_CASES } from '@coffer/csv';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('writes a header and one CRLF line per row, in column order', () => {
    expect(toCsv(['a', 'b'], [{ b: 2, a: 1 }, { a: 'x' }])).toBe('a,b\r\n1,2\r\nx,\r\n');
  });
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(toCsv(['m'], [{ m: 'a,b' }, { m: 'say "hi"' }, { m: 'two\nlines' }])).toBe('m\r\n"a,b"\r\n"say ""hi"""\r\n"two\nlines"\r\n');
  });
  it('neutralises spreadsheet formulas and serialises objects', () => {
    expect(toCsv(['m', 'o'], [{ m: '=HYPERLINK("x")', o: { k: 1 } }])).toBe('m,o\r\n"\'=HYPERLINK(""x"")","{""k"":1}"\r\n');
    expect(toCsv(['m'], [{ m: '-1' }, { m: '@a' }])).toBe("m\r\n'-1\r\n'@a\r\n");
  });
  it.each(CSV_CELL_CASES)('writes %j as the cell %j, like every CSV export of Coffer', (value, cell) => {
    expect(toCsv(['v'], [{ v: value }])).toBe(`v\r\n${cell}\r\n`);
  });
});
