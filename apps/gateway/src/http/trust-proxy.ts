import { isIP } from 'node:net';
import { ConfigError } from '@coffer/observability';

/**
 * Which forwarding headers the gateway believes (TRUST_PROXY, docs/operations.md#configuration), in the form Fastify's
 * `trustProxy` takes: `false` (the default: the client is the socket's address, X-Forwarded-For is ignored), a hop
 * count, or the addresses and CIDRs of the proxies in front. Trusting every sender would let any client choose the
 * address its refusals are recorded under (docs/audit.md).
 */
export type TrustProxy = false | number | readonly string[];

/** The ranges @fastify/proxy-addr knows by name. */
const NAMED = ['loopback', 'linklocal', 'uniquelocal'];
const PROBLEM = 'a hop count (0–20) or a comma list of proxies: every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal';

/** An IPv4 netmask in dotted form (255.240.0.0): ones, then zeros. */
function isNetmask(mask: string): boolean {
  if (isIP(mask) !== 4) return false;
  const bits = mask.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  const inverted = ~bits >>> 0;
  return (inverted & (inverted + 1)) === 0;
}

function entryProblem(entry: string): string | null {
  if (NAMED.includes(entry) || isIP(entry)) return null;
  const [address, range, ...more] = entry.split('/');
  const family = isIP(address ?? '');
  const ok =
    !more.length &&
    family !== 0 &&
    range !== undefined &&
    ((/^\d{1,3}$/.test(range) && Number(range) <= (family === 4 ? 32 : 128)) || (family === 4 && isNetmask(range)));
  return ok ? null : `${PROBLEM}, got "${entry}"`;
}

/**
 * TRUST_PROXY's value (config.ts reads it; unset or empty: none), parsed: a hop count 0–20 (0: none) or a comma list
 * of proxies. Throws ConfigError naming TRUST_PROXY, in the words envInt and envList use for every other setting.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = value ?? '';
  if (/^\d+$/.test(v.trim())) {
    // as envInt reads it: the digits alone, no blanks around them
    if (!/^\d+$/.test(v) || Number(v) > 20) throw new ConfigError(`TRUST_PROXY must be an integer between 0 and 20, got "${v}"`);
    const hops = Number(v);
    return hops === 0 ? false : hops;
  }
  // as envList reads it: entries trimmed, empty ones dropped
  const list = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of list) {
    const problem = entryProblem(entry);
    if (problem) throw new ConfigError(`TRUST_PROXY: ${problem}`);
  }
  return list.length ? Object.freeze(list) : false;
}

/** The value for Fastify's `trustProxy` option. */
export function fastifyTrustProxy(trust: TrustProxy): boolean | number | string[] {
  return typeof trust === 'object' ? [...trust] : trust;
}
