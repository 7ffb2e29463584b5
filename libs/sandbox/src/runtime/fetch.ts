/**
 * `fetch` (node-fetch 2 for Node 16: the `node-fetch` module and the global) with `Request`/`Response`. The request
 * is handed to the host as JSON plus body bytes (`startCall('fetch')`); the host applies the egress policy, limits
 * and deadline, and settles the call with the status, headers and body bytes. Bodies are whole byte arrays here
 * (`body` is null: no streams).
 */
import { jsonParse, jsonStringify } from './primordials';
import { AbortSignal } from './abort';
import { bufferCopy } from './buffer';
import { forgetCall, startCall } from './calls';
import { Headers } from './headers';
import { named, once } from './host';
import { getUrlClasses } from './url';
import { utf8Decode, utf8Encode, asBytes } from './utf8';

export class FetchError extends Error {
  type: string;
  code?: string;
  errno?: string;
  constructor(message: string, type: string, systemError?: { code?: unknown }) {
    super(message);
    Object.defineProperty(this, 'name', { value: 'FetchError', writable: true, configurable: true });
    this.type = type;
    if (systemError && typeof systemError.code === 'string') this.code = this.errno = systemError.code;
  }
}

export class AbortError extends Error {
  type = 'aborted';
  constructor(message?: string) {
    super(message === undefined ? 'The operation was aborted' : message);
    Object.defineProperty(this, 'name', { value: 'AbortError', writable: true, configurable: true });
  }
}

function setDefaultType(headers: Headers | null, type: string): void {
  if (headers && !headers.has('content-type')) headers.set('content-type', type);
}

/** The bytes of a request/response body (a copy), setting the content type node-fetch would. */
function bodyBytes(body: unknown, headers: Headers | null): Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') {
    setDefaultType(headers, 'text/plain;charset=UTF-8');
    return utf8Encode(body);
  }
  if (body instanceof getUrlClasses().URLSearchParams) {
    setDefaultType(headers, 'application/x-www-form-urlencoded;charset=UTF-8');
    return utf8Encode(body.toString());
  }
  const b = asBytes(body);
  if (b !== null) return Uint8Array.from(b);
  setDefaultType(headers, 'text/plain;charset=UTF-8');
  return utf8Encode(String(body));
}

class Body {
  _bytes: Uint8Array;
  private used = false;
  url = '';
  constructor(bytes: Uint8Array | null) {
    this._bytes = bytes === null ? new Uint8Array(0) : bytes;
  }
  get bodyUsed(): boolean {
    return this.used;
  }
  get body(): null {
    return null;
  }
  private take(): Promise<Uint8Array> {
    if (this.used) return Promise.reject(new TypeError('body used already for: ' + this.url));
    this.used = true;
    return Promise.resolve(this._bytes);
  }
  text(): Promise<string> {
    return this.take().then((b) => utf8Decode(b, 0, b.length, false));
  }
  json(): Promise<unknown> {
    const url = this.url;
    return this.text().then((t) => {
      try {
        return jsonParse(t);
      } catch (e) {
        throw new FetchError('invalid json response body at ' + url + ' reason: ' + (e as Error).message, 'invalid-json');
      }
    });
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
  }
  buffer(): Promise<Uint8Array> {
    return this.take().then((b) => bufferCopy(b));
  }
  textConverted(): Promise<string> {
    return this.text();
  }
}

interface RequestInit {
  method?: unknown;
  headers?: unknown;
  body?: unknown;
  redirect?: unknown;
  signal?: AbortSignal | null;
  timeout?: unknown;
  size?: unknown;
}

export class Request extends Body {
  readonly method: string;
  readonly headers: Headers;
  readonly redirect: string;
  readonly signal: AbortSignal | null;
  readonly timeout: number;
  readonly size: number;
  constructor(input: unknown, initArg?: RequestInit | null) {
    const init = initArg || {};
    const base = input instanceof Request ? input : null;
    const method = String(init.method !== undefined ? init.method : base ? base.method : 'GET').toUpperCase();
    const headers = new Headers(init.headers !== undefined ? init.headers : base ? base.headers : undefined);
    const body = init.body !== undefined ? bodyBytes(init.body, headers) : base ? base._bytes : null;
    if (body !== null && body.length > 0 && (method === 'GET' || method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body');
    super(body);
    const { URL } = getUrlClasses();
    this.url = base ? base.url : new URL(String(input)).href;
    this.method = method;
    this.headers = headers;
    this.redirect = String(init.redirect || (base ? base.redirect : 'follow'));
    this.signal = init.signal || (base ? base.signal : null);
    this.timeout = Number(init.timeout || (base ? base.timeout : 0)) || 0;
    this.size = Number(init.size || (base ? base.size : 0)) || 0;
  }
  clone(): Request {
    return new Request(this);
  }
  get [Symbol.toStringTag](): string {
    return 'Request';
  }
}

interface ResponseInit {
  status?: unknown;
  statusText?: unknown;
  headers?: unknown;
  url?: unknown;
  redirected?: unknown;
}

export class Response extends Body {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly redirected: boolean;
  type = 'default';
  constructor(body?: unknown, initArg?: ResponseInit | null) {
    const init = initArg || {};
    const headers = new Headers(init.headers);
    super(bodyBytes(body, headers));
    this.status = init.status === undefined ? 200 : Number(init.status);
    this.statusText = init.statusText === undefined ? '' : String(init.statusText);
    this.headers = headers;
    this.url = init.url === undefined ? '' : String(init.url);
    this.redirected = Boolean(init.redirected);
  }
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
  clone(): Response {
    if (this.bodyUsed) throw new Error('cannot clone body after it is used');
    const r = new Response(null, { status: this.status, statusText: this.statusText, headers: this.headers, url: this.url, redirected: this.redirected });
    r._bytes = this._bytes;
    return r;
  }
  static json(data: unknown, init?: ResponseInit): Response {
    const h = new Headers(init && init.headers);
    if (!h.has('content-type')) h.set('content-type', 'application/json');
    return new Response(jsonStringify(data), { status: init && init.status, statusText: init && init.statusText, headers: h });
  }
  static error(): Response {
    const r = new Response(null, { status: 0 });
    r.type = 'error';
    return r;
  }
  get [Symbol.toStringTag](): string {
    return 'Response';
  }
}

interface FetchAnswer {
  status?: number;
  statusText?: string;
  headers?: unknown;
  url?: string;
  redirected?: boolean;
  message?: string;
  type?: string;
  code?: string;
}

export function fetch(input: unknown, init?: RequestInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = new Request(input, init);
    if (req.signal && req.signal.aborted) return reject(new AbortError());
    const meta = { url: req.url, method: req.method, headers: req.headers.pairs(), redirect: req.redirect, timeout: req.timeout, size: req.size };
    const call = startCall('fetch', jsonStringify(meta), req._bytes.length ? req._bytes : undefined);
    let done = false;
    if (req.signal && typeof req.signal.addEventListener === 'function') {
      req.signal.addEventListener('abort', () => {
        if (done) return;
        done = true;
        forgetCall(call.id);
        reject(new AbortError());
      });
    }
    void call.promise.then(([ok, json, bytes]) => {
      if (done) return;
      done = true;
      const info = jsonParse(json) as FetchAnswer;
      if (!ok) return reject(new FetchError(String(info.message), info.type || 'system', { code: info.code }));
      const res = new Response(null, { status: info.status, statusText: info.statusText, headers: info.headers, url: info.url, redirected: info.redirected });
      res._bytes = bytes ?? new Uint8Array(0);
      resolve(res);
    });
  });
}

named(Request, 'Request');
named(Response, 'Response');
named(FetchError, 'FetchError');
named(AbortError, 'AbortError');

/** The `node-fetch` module: the function, with the classes as properties. */
export const getFetch = once(() =>
  Object.assign(fetch, {
    default: fetch,
    Headers,
    Request,
    Response,
    FetchError,
    AbortError,
    isRedirect: (code: unknown) => code === 301 || code === 302 || code === 303 || code === 307 || code === 308,
  }),
);
