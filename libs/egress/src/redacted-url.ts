/**
 * A destination URL as audit records and events may show it: its origin and path. User info, the query and the
 * fragment often carry a credential (`?api_key=…`), which must not spread to every reader of the trail and to every
 * webhook receiver; the API itself still gives the whole URL to those allowed to read the resource.
 */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(unparsable)';
  }
}
