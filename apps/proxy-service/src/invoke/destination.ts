import { isIP } from 'node:net';
import { badRequest } from '@coffer/contracts';

/** The header that names the destination, as errors name it (clients of the mirrored service send this spelling). */
export const DESTINATION_HEADER = 'BT-PROXY-URL';

const refuse = (message: string) => badRequest('The proxy destination is not allowed', { [DESTINATION_HEADER]: [message] });

/**
 * The URL a proxy request goes to: the destination's base URL (trailing slashes removed), then what followed
 * `/proxy` in the request path, then the query — the base URL's own parameters first, the request's after. Only
 * https URLs with a DNS name: IP literals (any spelling Node's URL parser turns into an address), credentials and
 * other schemes are refused before anything is resolved. The address check itself happens at connect time.
 */
export function destinationUrl(base: string | undefined, path: string, query: string): URL {
  if (base === undefined || base.trim() === '') throw refuse('is required');
  let url: URL;
  try {
    url = new URL(base.trim());
  } catch {
    throw refuse('must be an absolute https URL');
  }
  if (url.protocol !== 'https:') throw refuse('must use https');
  if (url.username || url.password) throw refuse('must not carry credentials');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '' || isIP(host) !== 0) throw refuse('must name the host by DNS name, not by IP address');
  url.hash = '';
  if (path !== '' && !path.startsWith('/')) throw badRequest('The proxy path is invalid');
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  if (query !== '') url.search = url.search === '' ? `?${query}` : `${url.search}&${query}`;
  return url;
}
