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
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  if (query !== '') url.search = url.search === '' ? `?${query}` : `${url.search}&${query}`;
  return url;
}
