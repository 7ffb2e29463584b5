/** A cell a spreadsheet would read as a formula (OWASP, CSV injection): = + - @, a tab or a carriage return first. */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 cell: objects as JSON, null and undefined empty; text that would start a formula gets a leading `'`
 * (shown as text, never run); quoted when it holds a comma, a quote or a line break, quotes doubled.
 */
export function csvCell(value: unknown): string {
  const text = value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const safe = FORMULA.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line of cells, without its line end. */
export function csvRow(values: readonly unknown[]): string {
  return values.map(csvCell).join(',');
}

/** A whole document: the header, then one line per row in column order, CRLF line ends (RFC 4180). */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return [csvRow(columns), ...rows.map((r) => csvRow(columns.map((c) => r[c])))].join('\r\n') + '\r\n';
}
