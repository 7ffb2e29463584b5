import { withoutHopByHop } from '@coffer/egress';
import type { ProxyInvocationMessage, ProxyMethod } from '@coffer/contracts';
import type { HeaderNames } from '../http/coffer-headers';
import type { GatewayRequest } from '../http/gateway-request';

/**
 * Request headers that are not the caller's message to the destination, besides the hop-by-hop ones (libs/egress):
 * the framing (the proxy frames the body again), what Coffer's edge or a load balancer in front of it added, and the
 * browser's cookies — Coffer's own (the console's session lives on the same host name) are never a destination's.
 */
const NOT_FORWARDED = new Set([
  'host',
  'content-length',
  'expect',
  'cookie',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
]);

/** The prefixes of Coffer's own headers: SVC, BT (what clients of the mirrored service send) and the configured aliases. */
export function proxyHeaderPrefixes(names: HeaderNames): string[] {
  return [...new Set([...names.apiKey.map((n) => n.slice(0, -'-api-key'.length)), 'bt'])];
}

/** The header carrying the destination, under any of its spellings (`SVC-PROXY-URL`, `BT-PROXY-URL`, ...). */
export function destinationOf(req: GatewayRequest, prefixes: string[]): string | undefined {
  return proxyHeader(req, prefixes, 'url');
}

/** The header carrying a pre-configured proxy's key, under any of its spellings (`BT-PROXY-KEY`, `SVC-PROXY-KEY`, ...). */
export function proxyKeyHeader(req: GatewayRequest, prefixes: string[]): string | undefined {
  return proxyHeader(req, prefixes, 'key');
}

/** `<prefix>-proxy-<name>` under the first prefix that has it (its first value when repeated). */
function proxyHeader(req: GatewayRequest, prefixes: string[], name: 'url' | 'key'): string | undefined {
  for (const p of prefixes) {
    const v = req.headers[`${p}-proxy-${name}`];
    const s = Array.isArray(v) ? v[0] : v;
    if (s !== undefined) return s;
  }
  return undefined;
}

/**
 * A pre-configured proxy's key from its header or, as the mirrored service also takes it, the `bt-proxy-key` (or
 * `<prefix>-proxy-key`) query parameter; and the query without that parameter, which is Coffer's and never forwarded.
 */
export function proxyKeyOf(req: GatewayRequest, prefixes: string[]): { key: string | undefined; query: string } {
  const url = req.raw.url ?? '/proxy';
  const q = url.indexOf('?');
  const query = q === -1 ? '' : url.slice(q + 1);
  const names = new Set(prefixes.map((p) => `${p}-proxy-key`));
  let fromQuery: string | undefined;
  const kept: string[] = [];
  for (const part of query === '' ? [] : query.split('&')) {
    const eq = part.indexOf('=');
    const name = decodeQueryPart(eq === -1 ? part : part.slice(0, eq)).toLowerCase();
    if (names.has(name)) fromQuery ??= decodeQueryPart(eq === -1 ? '' : part.slice(eq + 1));
    else kept.push(part);
  }
  return { key: proxyKeyHeader(req, prefixes) ?? fromQuery, query: kept.join('&') };
}

function decodeQueryPart(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * What the proxy-service gets: the request as the destination should see it. Coffer's own headers (the API key,
 * trace and idempotency ids, every `<prefix>-PROXY-*` header) stay here; everything else — `Authorization` included,
 * which is the destination's, since Coffer's key travels in its own header — is forwarded in arrival order.
 */
export function invocationOf(req: GatewayRequest, names: HeaderNames, prefixes: string[], body: Buffer | undefined): ProxyInvocationMessage {
  const own = new Set(names.all);
  const reserved = prefixes.map((p) => `${p}-proxy-`);
  const arrived: [string, string][] = [];
  const raw = req.raw.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (own.has(name) || reserved.some((r) => name.startsWith(r))) continue;
    arrived.push([name, raw[i + 1]]);
  }
  const headers = withoutHopByHop(arrived, NOT_FORWARDED);
  const url = req.raw.url ?? '/proxy';
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const rest = pathname.replace(/^\/proxy/, '');
  const { key, query } = proxyKeyOf(req, prefixes);
  const message: ProxyInvocationMessage = {
    method: req.method as ProxyMethod,
    destination: destinationOf(req, prefixes),
    path: rest === '/' ? '' : rest,
    query,
    headers,
  };
  if (key !== undefined) message.proxyKey = key;
  if (body && body.length) message.body = body.toString('base64');
  return message;
}
