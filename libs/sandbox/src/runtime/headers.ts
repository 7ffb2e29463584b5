/** The fetch `Headers` class (node-fetch 2 semantics: names lower-cased, values joined with ", "). */
import { named } from './host';

const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function headerName(n: unknown): string {
  const s = String(n);
  if (!TOKEN_RE.test(s)) throw new TypeError(s + ' is not a legal HTTP header name');
  return s.toLowerCase();
}

function headerValue(v: unknown): string {
  const s = String(v).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (/[\0\r\n]/.test(s)) throw new TypeError(s + ' is not a legal HTTP header value');
  return s;
}

export class Headers {
  private readonly m = new Map<string, string[]>();
  constructor(init?: unknown) {
    if (init === undefined || init === null) return;
    if (init instanceof Headers) {
      for (const [k, v] of init.m) this.m.set(k, v.slice());
      return;
    }
    if (typeof init !== 'object') throw new TypeError('Provided headers are not an object or iterable');
    const o = init as Record<string | symbol, unknown>;
    if (typeof o[Symbol.iterator] === 'function') {
      for (const pair of o as unknown as Iterable<Iterable<unknown>>) {
        const p = Array.from(pair);
        if (p.length !== 2) throw new TypeError('Each header pair must be a name/value tuple');
        this.append(p[0], p[1]);
      }
      return;
    }
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (Array.isArray(v)) for (const x of v) this.append(k, x);
      else this.append(k, v);
    }
  }
  append(n: unknown, v: unknown): void {
    const k = headerName(n);
    const val = headerValue(v);
    const l = this.m.get(k);
    if (l) l.push(val);
    else this.m.set(k, [val]);
  }
  set(n: unknown, v: unknown): void {
    this.m.set(headerName(n), [headerValue(v)]);
  }
  get(n: unknown): string | null {
    const l = this.m.get(headerName(n));
    return l === undefined ? null : l.join(', ');
  }
  has(n: unknown): boolean {
    return this.m.has(headerName(n));
  }
  delete(n: unknown): void {
    this.m.delete(headerName(n));
  }
  forEach(cb: (value: string, name: string, self: Headers) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) cb.call(thisArg, v, k, this);
  }
  keys(): IterableIterator<string> {
    return this.sorted()
      .map((e) => e[0])
      [Symbol.iterator]();
  }
  values(): IterableIterator<string> {
    return this.sorted()
      .map((e) => e[1])
      [Symbol.iterator]();
  }
  entries(): IterableIterator<[string, string]> {
    return this.sorted()[Symbol.iterator]();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
  /** node-fetch's `raw()`: every value of every header. */
  raw(): Record<string, string[]> {
    const o: Record<string, string[]> = {};
    for (const [k, v] of this.m) o[k] = v.slice();
    return o;
  }
  /** Name/value pairs as sent (each value of a repeated header apart). */
  pairs(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const [k, vs] of this.m) for (const v of vs) out.push([k, v]);
    return out;
  }
  private sorted(): Array<[string, string]> {
    return Array.from(this.m.keys())
      .sort()
      .map((k): [string, string] => [k, (this.m.get(k) as string[]).join(', ')]);
  }
  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

named(Headers, 'Headers');
