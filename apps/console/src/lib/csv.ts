/** RFC 4180 CSV: every field quoted when it holds a comma, quote or line break; quotes doubled; CRLF line ends. */
export function toCsv(columns: string[], rows: Record<string, unknown>[]): string {
  const field = (v: unknown): string => {
    const s = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    // a leading =, +, - or @ would be a formula in a spreadsheet: prefixed with ' (CSV injection)
    const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [columns.map(field).join(','), ...rows.map((r) => columns.map((c) => field(r[c])).join(','))].join('\r\n') + '\r\n';
}

/** Offers a text as a file download (a Blob URL: nothing leaves the browser). */
export function download(filename: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
