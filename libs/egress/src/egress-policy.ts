import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

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

interface Cidr4 {
  base: number;
  bits: number;
  cls: AddressClass;
}

const V4_BLOCKS: readonly Cidr4[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
].map(([ip, bits, cls]) => ({ base: parseIPv4(ip as string) as number, bits: bits as number, cls: cls as AddressClass }));

/** Parses dotted-quad IPv4 (as produced by the WHATWG URL parser and DNS), or null. */
function parseIPv4(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

function classifyIPv4Number(n: number): AddressClass {
  for (const b of V4_BLOCKS) {
    const size = 2 ** (32 - b.bits);
    if (n >= b.base && n < b.base + size) return b.cls;
  }
  return 'public';
}

/** Parses an IPv6 address (optionally with an embedded dotted IPv4 tail and a zone id) into 8 hextets. */
function parseIPv6(input: string): number[] | null {
  let ip = input;
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  let tail: number[] = [];
  const lastColon = ip.lastIndexOf(':');
  if (lastColon >= 0 && ip.includes('.', lastColon)) {
    const v4 = parseIPv4(ip.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [Math.floor(v4 / 65536), v4 % 65536];
    ip = ip.slice(0, lastColon + 1);
    if (!ip.endsWith('::')) ip = ip.slice(0, -1);
  }
  const want = 8 - tail.length;
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const parseGroup = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroup(halves[0]);
  if (head === null) return null;
  let groups: number[];
  if (halves.length === 2) {
    const rest = parseGroup(halves[1]);
    if (rest === null) return null;
    const fill = want - head.length - rest.length;
    if (fill < 1) return null;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else {
    if (head.length !== want) return null;
    groups = head;
  }
  return [...groups, ...tail];
}

function classifyIPv6(h: number[]): AddressClass {
  const v4At = (i: number) => h[i] * 65536 + h[i + 1];
  const zeroUpTo = (n: number) => h.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified'; // ::
  if (zeroUpTo(7) && h[7] === 1) return 'loopback'; // ::1
  if (zeroUpTo(5) && h[5] === 0xffff) return classifyIPv4Number(v4At(6)); // ::ffff:a.b.c.d (IPv4-mapped)
  if (zeroUpTo(4) && h[4] === 0xffff && h[5] === 0) return classifyIPv4Number(v4At(6)); // ::ffff:0:a.b.c.d (translated)
  if (zeroUpTo(6)) return classifyIPv4Number(v4At(6)); // ::a.b.c.d (IPv4-compatible, deprecated)
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return classifyIPv4Number(v4At(6)); // NAT64
  if (h[0] === 0x64 && h[1] === 0xff9b && h[2] === 1) return 'reserved'; // 64:ff9b:1::/48 local NAT64
  if (h[0] === 0x0100 && h[1] === 0 && h[2] === 0 && h[3] === 0) return 'reserved'; // 100::/64 discard
  if (h[0] === 0x2001 && h[1] < 0x0200) return 'reserved'; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, ...)
  if (h[0] === 0x2001 && h[1] === 0x0db8) return 'documentation'; // 2001:db8::/32
  if (h[0] === 0x3fff && h[1] < 0x1000) return 'documentation'; // 3fff::/20
  if (h[0] === 0x2002) {
    // 6to4: the embedded IPv4 decides
    const inner = classifyIPv4Number(v4At(1));
    return inner === 'public' ? 'public' : inner;
  }
  if ((h[0] & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((h[0] & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((h[0] & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((h[0] & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if ((h[0] & 0xe000) !== 0x2000) return 'reserved'; // only 2000::/3 is global unicast
  return 'public';
}

/** Classifies an IP address literal (IPv4 dotted quad, or IPv6 with or without brackets). */
export function classifyAddress(address: string): AddressClass {
  let ip = address.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const kind = isIP(ip.split('%')[0]);
  if (kind === 4) {
    const n = parseIPv4(ip);
    return n === null ? 'invalid' : classifyIPv4Number(n);
  }
  if (kind === 6) {
    const h = parseIPv6(ip);
    return h === null || h.length !== 8 ? 'invalid' : classifyIPv6(h);
  }
  return 'invalid';
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

/** The switches' spelling, as envBool (libs/observability) reads it: true, 1, yes (any case) are on. */
function isOn(value: string | undefined): boolean {
  return /^(true|1|yes)$/i.test(value ?? '');
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

  /** Reads the switch (`ALLOW_PRIVATE_EGRESS` by default; `ALLOW_PRIVATE_CALLBACKS` for webhooks) from the environment. */
  static fromEnv(
    variable = 'ALLOW_PRIVATE_EGRESS',
    env: NodeJS.ProcessEnv = process.env,
    opts: Omit<EgressPolicyOptions, 'allowPrivate'> = {},
  ): EgressPolicy {
    return new EgressPolicy({ ...opts, allowPrivate: isOn(env[variable]) });
  }

  /**
   * The policy for webhook deliveries (conventions §8): https to public addresses only, unless
   * `ALLOW_PRIVATE_CALLBACKS=true`, which also allows http and private/loopback addresses.
   */
  static forCallbacks(env: NodeJS.ProcessEnv = process.env, opts: Omit<EgressPolicyOptions, 'allowPrivate' | 'protocols'> = {}): EgressPolicy {
    return EgressPolicy.callbacks(isOn(env['ALLOW_PRIVATE_CALLBACKS']), opts);
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
        const list = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family !== 0 && (wanted === 0 || a.family === wanted));
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
