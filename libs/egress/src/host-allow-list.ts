/**
 * A per-reactor list of the hosts its code may reach: exact names (`api.stripe.com`), IP literals, or `*.` suffix
 * patterns (`*.example.com` matches `a.example.com` and `a.b.example.com`, not `example.com` itself). Matching is on
 * the URL's host name, lower-cased, without a trailing dot; ports are not part of it. A listed host still has to
 * pass the address check (a listed name of a private address stays unreachable).
 */

/** What a pattern may look like: a DNS name or IPv4 literal, optionally behind `*.`, or a bracketed IPv6 literal. */
export const HOST_PATTERN = /^(\*\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]{2,45}\]$/;

export function normalizeHostName(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

export class HostAllowList {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];

  /** Patterns that do not match {@link HOST_PATTERN} (after lower-casing) are ignored: validate them on input. */
  constructor(patterns: readonly string[]) {
    for (const raw of patterns) {
      let p = raw.trim().toLowerCase();
      if (p.endsWith('.') && !p.endsWith('*.')) p = p.slice(0, -1);
      if (!HOST_PATTERN.test(p)) continue;
      if (p.startsWith('*.')) this.suffixes.push(p.slice(1));
      else this.exact.add(normalizeHostName(p));
    }
  }

  allows(host: string): boolean {
    const h = normalizeHostName(host);
    if (this.exact.has(h)) return true;
    return this.suffixes.some((s) => h.length > s.length && h.endsWith(s));
  }
}
