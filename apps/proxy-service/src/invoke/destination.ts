import { badRequest, destinationUrlError } from '@coffer/contracts';

/** The header that names the destination, as errors name it (clients of the mirrored service send this spelling). */
export const DESTINATION_HEADER = 'BT-PROXY-URL';

const refuse = (message: string) => badRequest('The proxy destination is not allowed', { [DESTINATION_HEADER]: [message] });

/**
 * The URL a proxy request goes to: the destination's base URL (trailing slashes removed), then what followed
 * `/proxy` in the request path, then the query — the base URL's own parameters first, the request's after. The
 * base URL must pass destinationUrlError (https, a DNS name, no credentials); the address is checked at connect time.
 */
export function destinationUrl(base: string | undefined, path: string, query: string): URL {
  const wrong = destinationUrlError(base);
  if (wrong) throw refuse(wrong);
  const url = new URL((base as string).trim());
  url.hash = '';
  if (path !== '' && !path.startsWith('/')) throw badRequest('The proxy path is invalid');
  const climbs = pathClimbs(path);
  if (climbs) throw badRequest('The proxy path is invalid', { path: [climbs] });
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  if (query !== '') url.search = url.search === '' ? `?${query}` : `${url.search}&${query}`;
  return url;
}

/** How many times a path is percent-decoded when looking for dot segments: more than any server in front of a destination does. */
const DECODE_ROUNDS = 4;

/**
 * Why a path after /proxy could leave the destination's base path (null: it cannot). A `.` or `..` segment or a
 * backslash — as sent, or percent-encoded once or several times (`%2e%2e`, `%252e`, `..%2f`, `..%5c`), or with a
 * `;parameter` (`..;`, which some servers read as `..`) — is refused rather than resolved: the URL parser, the
 * destination or a server in front of it would resolve it against the base path, taking the proxy's credential
 * wherever the caller pointed.
 */
export function pathClimbs(path: string): string | null {
  // the URL parser drops tabs and line breaks before it resolves dot segments
  let text = path.replace(/[\t\n\r]/g, '');
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    if (text.includes('\\')) return 'must not contain a backslash';
    if (text.split('/').some((segment) => /^\.\.?(;.*)?$/.test(segment))) return 'must not contain "." or ".." segments';
    const decoded = text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === text) return null;
    text = decoded;
  }
  // still encoded after that many rounds: nobody sends such a path in earnest
  return 'is encoded too many times';
}
