import { gatewayConfig } from '../config';

// The headers Coffer itself reads from a request (docs/api-reference.md): their names with the aliases, and how a
// value is taken from them. What the proxy strips is its own: hop-by-hop headers in libs/egress (hop-by-hop.ts), a
// destination's cookies and policies in proxy/proxy.controller.ts.

/** SVC-* headers plus `<P>-*` aliases from HEADER_ALIAS_PREFIXES (e.g. BT → BT-API-KEY). */
export class HeaderNames {
  readonly apiKey: string[];
  readonly idempotencyKey: string[];
  readonly traceId: string[];

  /** `aliasPrefixes`: a comma list or the list itself; by default the configuration's HEADER_ALIAS_PREFIXES */
  constructor(aliasPrefixes: string | readonly string[] = gatewayConfig().headerAliasPrefixes) {
    const prefixes = [
      'svc',
      ...(typeof aliasPrefixes === 'string' ? aliasPrefixes.split(',') : aliasPrefixes).map((p) => p.trim().toLowerCase()).filter(Boolean),
    ];
    this.apiKey = prefixes.map((p) => `${p}-api-key`);
    this.idempotencyKey = prefixes.map((p) => `${p}-idempotency-key`);
    this.traceId = prefixes.map((p) => `${p}-trace-id`);
  }

  get all(): string[] {
    return [...this.apiKey, ...this.idempotencyKey, ...this.traceId];
  }

  static first(headers: Record<string, string | string[] | undefined>, names: string[]): string | undefined {
    for (const n of names) {
      const v = headers[n];
      const s = Array.isArray(v) ? v[0] : v;
      if (s) return s;
    }
    return undefined;
  }
}

/** The IETF header (draft-ietf-httpapi-idempotency-key-header), accepted beside SVC-IDEMPOTENCY-KEY and its aliases. */
export const IETF_IDEMPOTENCY_KEY = 'idempotency-key';

/** What a request says its idempotency key is: none, one, or different values in different headers. */
export interface IdempotencyKeyHeaders {
  key?: string;
  /** the headers (as sent, lower case) that carry different keys: the request is refused (400) on a write */
  conflicting?: string[];
}

/**
 * The request's idempotency key from `names` (SVC-IDEMPOTENCY-KEY, then each `<P>-IDEMPOTENCY-KEY` alias) and, unless
 * `ietf` is false, `Idempotency-Key`. Several of them with the same value are one key; different values are a
 * conflict rather than a silent pick, since which one the client meant cannot be known and a wrong guess replays (or
 * repeats) a write. An empty value is no key, as it always was for SVC-IDEMPOTENCY-KEY.
 */
export function idempotencyKeyFrom(headers: Record<string, string | string[] | undefined>, names: readonly string[], ietf = true): IdempotencyKeyHeaders {
  const sent: Array<[string, string]> = [];
  for (const name of ietf ? [...names, IETF_IDEMPOTENCY_KEY] : names) {
    const v = headers[name];
    const value = Array.isArray(v) ? v[0] : v;
    if (value) sent.push([name, value]);
  }
  if (!sent.length) return {};
  const [[, key]] = sent;
  return sent.every(([, v]) => v === key) ? { key } : { conflicting: sent.map(([name]) => name) };
}
