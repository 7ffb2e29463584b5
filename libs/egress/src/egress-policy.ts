import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { allowPrivateCallbacksFromEnv, allowPrivateEgressFromEnv } from './egress-config';

/**
 * Why an address is (or is not) reachable from formula code / webhook deliveries.
 * Everything but `public` is refused unless the policy allows private egress.
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared' // 100.64/10 carrier-grade NAT
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'invalid';

export interface EgressPolicyOptions {
  /** Allow loopback, private, link-local, ... addresses (development and tests). Default false. */
  allowPrivate?: boolean;
  /**
   * Exact host names (lower case, no port) exempted from the address check, e.g. a partner host inside the
   * operator's network, or a test host resolved by an injected resolver. IP literals may be listed too.
   * Everything reached through redirects from such a host is still checked.
   */
  allowHosts?: readonly string[];
  /** URL schemes allowed, default `['http:', 'https:']` (webhook callbacks: `['https:']`). */
  protocols?: readonly string[];
  /** DNS resolution (tests inject one). Default: `dns.lookup(host, {all: true})`. */
  resolver?: (host: string) => Promise<string[]>;
}

/**
 * Raised when a URL or address is refused by the policy. The message never contains resolved addresses, and a host
 * that does not resolve gets the very same error as one that resolves to a refused address (see {@link unreachable}).
 */
export class EgressDeniedError extends Error {
  readonly code = 'EGRESS_DENIED';
  constructor(message: string) {
    super(message);
    this.name = 'EgressDeniedError';
  }
}

/**
 * Address ranges and their class, first match wins; parsing and matching are ipaddr.js's. IPv4 not listed is
 * public; IPv6 is public only inside 2000::/3 and outside the ranges below, and an IPv6 address that embeds an IPv4
 * address (mapped, translated, compatible, NAT64, 6to4) is classified by the embedded address.
 */
const V4_RANGES = cidrs<ipaddr.IPv4>(ipaddr.IPv4, [
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

/** IPv6 prefixes whose last 32 bits (6to4: bits 16-47) are an IPv4 address that decides. */
const V6_EMBEDDING_V4 = cidrs<ipaddr.IPv6>(ipaddr.IPv6, [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'embedded'], // IPv4-mapped
  ['::ffff:0:0:0/96', 'embedded'], // IPv4-translated
  ['::/96', 'embedded'], // IPv4-compatible (deprecated)
  ['64:ff9b::/96', 'embedded'], // NAT64
  ['2002::/16', 'embedded-6to4'],
]);

const V6_RANGES = cidrs<ipaddr.IPv6>(ipaddr.IPv6, [
  ['64:ff9b:1::/48', 'reserved'], // local NAT64
  ['100::/64', 'reserved'], // discard
  ['2001::/23', 'reserved'], // IETF protocol assignments (Teredo, ORCHID, ...)
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'private'], // unique local
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'], // site-local (deprecated)
  ['ff00::/8', 'multicast'],
]);

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function cidrs<A extends ipaddr.IPv4 | ipaddr.IPv6>(
  kind: { parseCIDR(s: string): [A, number] },
  table: ReadonlyArray<readonly [string, string]>,
): ReadonlyArray<{ range: [A, number]; cls: string }> {
  return table.map(([cidr, cls]) => ({ range: kind.parseCIDR(cidr), cls }));
}

function classifyV4(a: ipaddr.IPv4): AddressClass {
  return (V4_RANGES.find((r) => a.match(r.range))?.cls ?? 'public') as AddressClass;
}

function classifyV6(a: ipaddr.IPv6): AddressClass {
  const embedding = V6_EMBEDDING_V4.find((r) => a.match(r.range));
  if (embedding) {
    const p = a.parts;
    if (embedding.cls === 'embedded') return classifyV4(new ipaddr.IPv4([p[6] >> 8, p[6] & 255, p[7] >> 8, p[7] & 255]));
    if (embedding.cls === 'embedded-6to4') return classifyV4(new ipaddr.IPv4([p[1] >> 8, p[1] & 255, p[2] >> 8, p[2] & 255]));
    return embedding.cls as AddressClass;
  }
  const range = V6_RANGES.find((r) => a.match(r.range));
  if (range) return range.cls as AddressClass;
  return a.match(GLOBAL_UNICAST) ? 'public' : 'reserved';
}

/** Classifies an IP address literal (IPv4 dotted quad, or IPv6 with or without brackets and zone id). */
export function classifyAddress(address: string): AddressClass {
  let ip = address.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  // node:net decides what is a literal (dotted-quad IPv4 only: no octal, hex or short forms)
  const kind = isIP(ip.split('%')[0]);
  if (kind === 0) return 'invalid';
  try {
    const parsed = ipaddr.parse(ip);
    return parsed.kind() === 'ipv4' ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
  } catch {
    return 'invalid';
  }
}

/**
 * The one error for a host that cannot be reached: it does not resolve, or not only to allowed addresses, or it is a
 * refused IP literal. Telling these apart would let formula code probe the service's network: which internal names
 * exist (an unresolvable name vs. a name of a private address) and which addresses they have. Same message, class
 * and code in every case; the host named is the one the caller gave.
 */
export function unreachable(host: string): EgressDeniedError {
  return new EgressDeniedError(`Requests to ${host} are not allowed (not found, or not a public address)`);
}

function defaultResolver(host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve(addresses.map((a) => a.address));
    });
  });
}

/**
 * Decides whether formula code (or a webhook delivery) may reach a URL or an address:
 * only the allowed schemes, and - unless `allowPrivate` - only public unicast addresses. Host names are checked
 * after resolution, at connect time (see {@link EgressPolicy.lookup}), so there is no window for DNS rebinding.
 */
export class EgressPolicy {
  readonly allowPrivate: boolean;
  private readonly allowHosts: ReadonlySet<string>;
  private readonly protocols: ReadonlySet<string>;
  private readonly resolver: (host: string) => Promise<string[]>;

  constructor(opts: EgressPolicyOptions = {}) {
    this.allowPrivate = opts.allowPrivate ?? false;
    this.allowHosts = new Set((opts.allowHosts ?? []).map((h) => normalizeHost(h)));
    this.protocols = new Set(opts.protocols ?? ['http:', 'https:']);
    this.resolver = opts.resolver ?? defaultResolver;
  }

  /**
   * Reads the switch (`ALLOW_PRIVATE_EGRESS` by default; `ALLOW_PRIVATE_CALLBACKS` for webhooks) from `env`, the
   * process's environment unless given (egress-config.ts).
   */
  static fromEnv(variable = 'ALLOW_PRIVATE_EGRESS', env?: NodeJS.ProcessEnv, opts: Omit<EgressPolicyOptions, 'allowPrivate'> = {}): EgressPolicy {
    return new EgressPolicy({ ...opts, allowPrivate: allowPrivateEgressFromEnv(variable, env) });
  }

  /**
   * The policy for webhook deliveries (docs/reactors.md): https to public addresses only, unless
   * `ALLOW_PRIVATE_CALLBACKS=true`, which also allows http and private/loopback addresses. `env`: the process's
   * environment unless given (egress-config.ts).
   */
  static forCallbacks(env?: NodeJS.ProcessEnv, opts: Omit<EgressPolicyOptions, 'allowPrivate' | 'protocols'> = {}): EgressPolicy {
    return EgressPolicy.callbacks(allowPrivateCallbacksFromEnv(env), opts);
  }

  /** The webhook policy from an already validated switch (the services' config modules read ALLOW_PRIVATE_CALLBACKS). */
  static callbacks(allowPrivate: boolean, opts: Omit<EgressPolicyOptions, 'allowPrivate' | 'protocols'> = {}): EgressPolicy {
    return new EgressPolicy({ ...opts, allowPrivate, protocols: allowPrivate ? ['http:', 'https:'] : ['https:'] });
  }

  /** Whether an IP address literal may be connected to. */
  isAddressAllowed(address: string): boolean {
    if (this.allowPrivate) return classifyAddress(address) !== 'invalid';
    return classifyAddress(address) === 'public';
  }

  /** Whether a host name (or literal) is exempt from the address check. */
  isHostExempt(host: string): boolean {
    return this.allowHosts.has(normalizeHost(host));
  }

  /**
   * Checks the scheme and, for IP-literal hosts, the address. Host names are checked when they are resolved.
   * Returns the parsed URL; throws {@link EgressDeniedError}.
   */
  checkUrl(input: string | URL): URL {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : new URL(input.href);
    } catch {
      throw new EgressDeniedError('Invalid URL');
    }
    if (!this.protocols.has(url.protocol)) {
      throw new EgressDeniedError(`Only ${[...this.protocols].map((p) => p.slice(0, -1)).join(' and ')} URLs are allowed`);
    }
    if (url.username || url.password) {
      // credentials in URLs are a classic parser-confusion vector; use an Authorization header instead
      throw new EgressDeniedError('URLs with credentials are not allowed');
    }
    const host = normalizeHost(url.hostname);
    if (host === '') throw new EgressDeniedError('Invalid URL');
    if (isIP(host) && !this.isHostExempt(host) && !this.isAddressAllowed(host)) throw unreachable(host);
    return url;
  }

  /**
   * Resolves a host name and checks every address it resolves to; returns the addresses (all allowed). A name that
   * does not resolve and a name of a refused address fail alike ({@link unreachable}).
   */
  async resolve(hostname: string): Promise<string[]> {
    const host = normalizeHost(hostname);
    if (isIP(host)) {
      if (!this.isHostExempt(host) && !this.isAddressAllowed(host)) throw unreachable(host);
      return [host];
    }
    let addresses: string[];
    try {
      addresses = await this.resolver(host);
    } catch {
      throw unreachable(host);
    }
    if (!Array.isArray(addresses) || addresses.length === 0) throw unreachable(host);
    if (!this.isHostExempt(host) && !addresses.every((a) => this.isAddressAllowed(a))) throw unreachable(host);
    return addresses;
  }

  /**
   * A `lookup` for `net.connect`/`tls.connect` (e.g. undici `Agent({connect: {lookup}})`): resolves with the
   * policy's resolver and refuses disallowed addresses, so the checked address is the one connected to.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const opts = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean; family?: number | string };
    this.resolve(hostname).then(
      (addresses) => {
        const wanted = opts.family === 4 || opts.family === 'IPv4' ? 4 : opts.family === 6 || opts.family === 'IPv6' ? 6 : 0;
        const list = addresses.map((address) => ({ address, family: isIP(address) })).filter((a) => a.family !== 0 && (wanted === 0 || a.family === wanted));
        if (list.length === 0) {
          callback(unreachable(normalizeHost(hostname)) as unknown as NodeJS.ErrnoException, '', 0);
          return;
        }
        if (opts.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, list);
        else callback(null, list[0].address, list[0].family);
      },
      (err: Error) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
}

function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}
