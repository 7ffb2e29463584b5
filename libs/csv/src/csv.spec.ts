import { CSV_CELL_CASES, csvCell, csvRow, toCsv } from './index';

describe('CSV writer', () => {
  it.each(CSV_CELL_CASES)('writes %j as the cell %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('joins a row with commas and a document with CRLF line ends, header first, in column order', () => {
    expect(csvRow(['=a', 'b,c', 1])).toBe(`'=a,"b,c",1`);
    expect(toCsv(['a', 'b'], [{ b: 2, a: 1 }, { a: '@x' }])).toBe("a,b\r\n1,2\r\n'@x,\r\n");
  });
});
