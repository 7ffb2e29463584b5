/**
 * WHATWG `URL` and `URLSearchParams`. V8 alone has no URL parser: parsing and setters are delegated to the host's
 * (Node's) implementation through `host('url')` / `host('urlset')`, which copy strings in and a record of strings
 * out - the URL object here holds only those strings. URLSearchParams is plain code over strings.
 */
import { codedError, once, tryHost } from './host';
import { utf8Decode, utf8Encode } from './utf8';

const UNRESERVED = /[A-Za-z0-9*\-._]/;
const HEX2 = /^[0-9A-Fa-f]{2}$/;

function formEncode(s: string): string {
  const b = utf8Encode(s);
  let out = '';
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === 0x20) out += '+';
    else if (c < 0x80 && UNRESERVED.test(String.fromCharCode(c))) out += String.fromCharCode(c);
    else out += '%' + (c < 16 ? '0' : '') + c.toString(16).toUpperCase();
  }
  return out;
}

function percentDecode(s: string): string {
  const b = utf8Encode(s);
  const out = new Uint8Array(b.length);
  let p = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === 0x25 && i + 2 < b.length && HEX2.test(String.fromCharCode(b[i + 1], b[i + 2]))) {
      out[p++] = parseInt(String.fromCharCode(b[i + 1], b[i + 2]), 16);
      i += 2;
    } else out[p++] = c;
  }
  return utf8Decode(out, 0, p, false);
}

export function parseQuery(query: string): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  const q = query.length > 0 && query[0] === '?' ? query.slice(1) : query;
  for (const part of q.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq >= 0 ? part.slice(0, eq) : part;
    const value = eq >= 0 ? part.slice(eq + 1) : '';
    list.push([percentDecode(name.replace(/\+/g, ' ')), percentDecode(value.replace(/\+/g, ' '))]);
  }
  return list;
}

const URL_FIELDS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'] as const;
type UrlRecord = Record<(typeof URL_FIELDS)[number], string>;

function invalidUrl(input: unknown): TypeError {
  return Object.assign(codedError(new TypeError('Invalid URL'), 'ERR_INVALID_URL'), { input });
}

function parseUrl(input: string, base: string | undefined): UrlRecord {
  const r = tryHost('url', input, base);
  if (!r.ok) throw invalidUrl(input);
  return r.value as UrlRecord;
}

export const getUrlClasses = once(() => {
  class URLSearchParams {
    _list: Array<[string, string]> = [];
    _onChange: ((query: string) => void) | null = null;
    constructor(init?: unknown) {
      if (init === undefined || init === null) return;
      if (init instanceof URLSearchParams) {
        this._list = init._list.map((p): [string, string] => [p[0], p[1]]);
        return;
      }
      if (typeof init === 'object' || typeof init === 'function') {
        const o = init as Record<string | symbol, unknown>;
        if (typeof o[Symbol.iterator] === 'function') {
          for (const pair of o as unknown as Iterable<Iterable<unknown>>) {
            const p = Array.from(pair);
            if (p.length !== 2) throw new TypeError('Each query pair must be an iterable [name, value] tuple');
            this._list.push([String(p[0]), String(p[1])]);
          }
        } else {
          for (const k of Object.keys(o)) this._list.push([k, String(o[k])]);
        }
        return;
      }
      this._list = parseQuery(String(init));
    }
    _setQuery(query: string): void {
      this._list = parseQuery(query);
    }
    private changed(): void {
      if (this._onChange !== null) this._onChange(this.toString());
    }
    get size(): number {
      return this._list.length;
    }
    append(name: unknown, value: unknown): void {
      this._list.push([String(name), String(value)]);
      this.changed();
    }
    delete(name: unknown, value?: unknown): void {
      const n = String(name);
      this._list = this._list.filter((p) => !(p[0] === n && (value === undefined || p[1] === String(value))));
      this.changed();
    }
    get(name: unknown): string | null {
      const n = String(name);
      for (const p of this._list) if (p[0] === n) return p[1];
      return null;
    }
    getAll(name: unknown): string[] {
      const n = String(name);
      return this._list.filter((p) => p[0] === n).map((p) => p[1]);
    }
    has(name: unknown, value?: unknown): boolean {
      const n = String(name);
      return this._list.some((p) => p[0] === n && (value === undefined || p[1] === String(value)));
    }
    set(name: unknown, value: unknown): void {
      const n = String(name);
      const v = String(value);
      const out: Array<[string, string]> = [];
      let found = false;
      for (const p of this._list) {
        if (p[0] !== n) out.push(p);
        else if (!found) {
          out.push([n, v]);
          found = true;
        }
      }
      if (!found) out.push([n, v]);
      this._list = out;
      this.changed();
    }
    sort(): void {
      const indexed = this._list.map((p, i): [[string, string], number] => [p, i]);
      indexed.sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]));
      this._list = indexed.map((x) => x[0]);
      this.changed();
    }
    forEach(cb: (value: string, name: string, self: URLSearchParams) => void, thisArg?: unknown): void {
      for (const p of this._list.slice()) cb.call(thisArg, p[1], p[0], this);
    }
    keys(): IterableIterator<string> {
      return this._list.map((p) => p[0])[Symbol.iterator]();
    }
    values(): IterableIterator<string> {
      return this._list.map((p) => p[1])[Symbol.iterator]();
    }
    entries(): IterableIterator<[string, string]> {
      return this._list.map((p): [string, string] => [p[0], p[1]])[Symbol.iterator]();
    }
    [Symbol.iterator](): IterableIterator<[string, string]> {
      return this.entries();
    }
    toString(): string {
      return this._list.map((p) => formEncode(p[0]) + '=' + formEncode(p[1])).join('&');
    }
    get [Symbol.toStringTag](): string {
      return 'URLSearchParams';
    }
  }

  class URL {
    // accessors defined below from URL_FIELDS (reading the host's parse)
    declare readonly origin: string;
    declare href: string;
    declare protocol: string;
    declare username: string;
    declare password: string;
    declare host: string;
    declare hostname: string;
    declare port: string;
    declare pathname: string;
    declare search: string;
    declare hash: string;
    _c: UrlRecord;
    _sp: URLSearchParams | null = null;
    constructor(input: unknown, base?: unknown) {
      this._c = parseUrl(String(input), base === undefined ? undefined : String(base));
    }
    static canParse(input: unknown, base?: unknown): boolean {
      try {
        parseUrl(String(input), base === undefined ? undefined : String(base));
        return true;
      } catch {
        return false;
      }
    }
    _set(field: string, value: unknown): void {
      const r = tryHost('urlset', this._c.href, field, String(value));
      if (!r.ok) {
        if (field === 'href') throw invalidUrl(value);
        return;
      }
      this._c = r.value as UrlRecord;
      if (this._sp !== null) this._sp._setQuery(this._c.search);
    }
    get searchParams(): URLSearchParams {
      if (this._sp === null) {
        const sp = new URLSearchParams(this._c.search);
        sp._onChange = (q) => this._set('search', q);
        this._sp = sp;
      }
      return this._sp;
    }
    toString(): string {
      return this._c.href;
    }
    toJSON(): string {
      return this._c.href;
    }
    get [Symbol.toStringTag](): string {
      return 'URL';
    }
  }
  for (const f of URL_FIELDS) {
    const desc: PropertyDescriptor = {
      get(this: URL) {
        return this._c[f];
      },
      configurable: true,
      enumerable: true,
    };
    if (f !== 'origin') {
      desc.set = function (this: URL, v: unknown) {
        this._set(f, v);
      };
    }
    Object.defineProperty(URL.prototype, f, desc);
  }
  return { URL, URLSearchParams };
});
