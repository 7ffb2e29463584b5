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
