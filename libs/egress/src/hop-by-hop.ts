/**
 * The header rules of every hop Coffer relays (the proxy both ways, egress requests): one list, so a relay cannot
 * forget a name the others remove.
 *
 * Hop-by-hop headers describe one connection, not the message (RFC 9110 §7.6.1), and so does every header that a
 * `Connection` header names: a relay removes them all, or a sender could smuggle a header past the relay's own rules
 * by declaring it connection-specific to the next hop.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
]);

/** The lower-case names a message's `Connection` header(s) list (`Connection: close, X-Foo` → close, x-foo). */
export function connectionNamed(headers: Iterable<readonly [string, string]>): Set<string> {
  const named = new Set<string>();
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const token of value.split(',')) {
      const t = token.trim().toLowerCase();
      if (t) named.add(t);
    }
  }
  return named;
}

/**
 * The headers without the hop-by-hop ones and those the message's `Connection` header names (`extra`: names the relay
 * drops too, such as the framing it redoes), in their order. Names are compared in lower case.
 */
export function withoutHopByHop(headers: readonly (readonly [string, string])[], extra: ReadonlySet<string> = new Set()): [string, string][] {
  const named = connectionNamed(headers);
  const kept: [string, string][] = [];
  for (const [name, value] of headers) {
    const n = name.toLowerCase();
    if (HOP_BY_HOP.has(n) || named.has(n) || extra.has(n)) continue;
    kept.push([name, value]);
  }
  return kept;
}
