// the one CSV writer, shared with the operator CLI's audit export (libs/csv): RFC 4180, formulas neutralised
export { toCsv } from '@coffer/csv';

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
