import { STATUS_CODES } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { EgressDeniedError, EgressPolicy, unreachable } from './egress-policy';
import { normalizeHostName } from './host-allow-list';
import { HOP_BY_HOP, connectionNamed } from './hop-by-hop';

export interface EgressRequest {
  url: string;
  method?: string;
  /** Header pairs; names are validated and hop-by-hop headers are dropped. */
  headers?: ReadonlyArray<readonly [string, string]>;
  body?: Uint8Array | null;
  /** `follow` (default, at most `maxRedirects` hops, each re-checked), `manual` (return the 3xx), `error`. */
  redirect?: 'follow' | 'manual' | 'error';
}

export interface EgressResponse {
  status: number;
  statusText: string;
  /** Final URL (after redirects). */
  url: string;
  redirected: boolean;
  /** Lower-cased header pairs in arrival order. */
  headers: [string, string][];
  body: Buffer;
}

export interface EgressLimits {
  /** Absolute deadline (epoch ms) for the whole exchange: connect, headers, body, every redirect. */
  deadline: number;
  /** Response body limit in bytes (after decompression). Default 5 MiB. */
  maxResponseBytes?: number;
  /** Request body limit in bytes. Default 5 MiB. */
  maxRequestBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Aborts the exchange (e.g. when the invocation ends). */
  signal?: AbortSignal;
  /**
   * The hosts this exchange may reach (a reactor's egress list), checked on every hop before anything is resolved
   * (no DNS query for a refused host). A refused host fails exactly like an unreachable one.
   */
  hostAllowed?: (host: string) => boolean;
}

/** A failure of the exchange; `type`/`code` follow node-fetch's FetchError conventions. */
export class EgressFetchError extends Error {
  constructor(
    message: string,
    readonly type: 'system' | 'egress-denied' | 'max-size' | 'request-timeout' | 'max-redirect' | 'no-redirect' | 'invalid' | 'aborted',
    readonly code?: string,
  ) {
    super(message);
    this.name = 'EgressFetchError';
  }
}

export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** besides the hop-by-hop headers: what the client sets itself (framing, host, its own content coding) */
const DROP_REQUEST_HEADERS = new Set([...HOP_BY_HOP, 'host', 'content-length', 'expect', 'accept-encoding']);
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

const agents = new WeakMap<EgressPolicy, Agent>();

/** One keep-alive Agent per policy, whose `connect.lookup` enforces the policy on every new connection. */
export function agentFor(policy: EgressPolicy): Agent {
  let agent = agents.get(policy);
  if (!agent) {
    agent = new Agent({
      connect: { lookup: policy.lookup, timeout: 10_000 },
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 30_000,
      headersTimeout: 0, // the overall deadline governs
      bodyTimeout: 0,
      connections: 64,
    });
    agents.set(policy, agent);
  }
  return agent;
}

/** Closes the keep-alive connections of a policy's agent (e.g. on shutdown). */
export async function releaseAgent(policy: EgressPolicy): Promise<void> {
  const agent = agents.get(policy);
  if (!agent) return;
  agents.delete(policy);
  await agent.close().catch(() => undefined);
}

/**
 * Performs one HTTP exchange under an egress policy: the scheme and every address are checked (IP literals up front,
 * host names at connect time by the agent's lookup), redirects are followed manually and re-checked, the body is
 * size-limited and everything is bounded by one absolute deadline (slow-loris safe).
 */
export async function egressFetch(policy: EgressPolicy, req: EgressRequest, limits: EgressLimits): Promise<EgressResponse> {
  const maxResponse = limits.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxRequest = limits.maxRequestBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxRedirects = limits.maxRedirects ?? 5;
  let method = (req.method ?? 'GET').toUpperCase();
  if (!TOKEN.test(method) || method === 'CONNECT' || method === 'TRACE' || method === 'TRACK') {
    throw new EgressFetchError(`Method ${method} is not allowed`, 'invalid');
  }
  let body: Uint8Array | null = req.body && req.body.byteLength > 0 ? req.body : null;
  if (body && body.byteLength > maxRequest) throw new EgressFetchError(`Request body exceeds ${maxRequest} bytes`, 'max-size');
  if (body && (method === 'GET' || method === 'HEAD')) throw new EgressFetchError('Request with GET/HEAD method cannot have body', 'invalid');
  let headers = sanitizeHeaders(req.headers ?? []);
  const remaining = limits.deadline - Date.now();
  if (remaining <= 0) throw new EgressFetchError('network timeout', 'request-timeout');

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new EgressFetchError('network timeout', 'request-timeout')), remaining);
  const onOuterAbort = () => controller.abort(new EgressFetchError('The operation was aborted', 'aborted'));
  if (limits.signal) {
    if (limits.signal.aborted) onOuterAbort();
    else limits.signal.addEventListener('abort', onOuterAbort, { once: true });
  }
  const agent = agentFor(policy);
  const check = (input: string | URL): URL => {
    const checked = policy.checkUrl(input);
    if (limits.hostAllowed && !limits.hostAllowed(checked.hostname)) throw unreachable(normalizeHostName(checked.hostname));
    return checked;
  };
  let url: URL;
  try {
    url = check(req.url);
  } catch (e) {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onOuterAbort);
    throw toFetchError(e, req.url);
  }
  try {
    for (let hop = 0; ; hop++) {
      const res = await dispatch(agent, url, method, headers, body, controller.signal);
      const location = res.headers.find(([k]) => k === 'location')?.[1];
      const isRedirect = [301, 302, 303, 307, 308].includes(res.statusCode) && location !== undefined;
      if (!isRedirect || req.redirect === 'manual') {
        const buf = await readBody(res.body, maxResponse, res.headers);
        return {
          status: res.statusCode,
          statusText: STATUS_CODES[res.statusCode] ?? '',
          url: url.href,
          redirected: hop > 0,
          headers: res.headers,
          body: buf,
        };
      }
      res.body.on('error', () => undefined);
      res.body.destroy(); // discard the redirect's body
      if (req.redirect === 'error') {
        throw new EgressFetchError(`uri requested responds with a redirect, redirect mode is set to error: ${url.href}`, 'no-redirect');
      }
      if (hop >= maxRedirects) throw new EgressFetchError(`maximum redirect reached at: ${url.href}`, 'max-redirect');
      let next: URL;
      try {
        next = check(new URL(location as string, url));
      } catch (e) {
        throw toFetchError(e, location as string);
      }
      if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
        method = 'GET';
        body = null;
        headers = headers.filter(([k]) => k !== 'content-type');
      }
      if (next.origin !== url.origin) headers = headers.filter(([k]) => !CREDENTIAL_HEADERS.has(k));
      url = next;
    }
  } catch (e) {
    if (controller.signal.aborted && controller.signal.reason instanceof EgressFetchError) throw controller.signal.reason;
    throw toFetchError(e, url.href);
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onOuterAbort);
  }
}

interface RawResponse {
  statusCode: number;
  headers: [string, string][];
  body: Dispatcher.ResponseData['body'];
}

async function dispatch(
  agent: Agent,
  url: URL,
  method: string,
  headers: [string, string][],
  body: Uint8Array | null,
  signal: AbortSignal,
): Promise<RawResponse> {
  const flat: string[] = [];
  for (const [k, v] of headers) flat.push(k, v);
  flat.push('accept-encoding', 'identity');
  if (!headers.some(([k]) => k === 'user-agent')) flat.push('user-agent', 'coffer-reactor/1.0');
  if (!headers.some(([k]) => k === 'accept')) flat.push('accept', '*/*');
  const res = await agent.request({
    origin: url.origin,
    path: url.pathname + url.search,
    method: method as Dispatcher.HttpMethod,
    headers: flat,
    body: body ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : undefined,
    signal,
  });
  const pairs: [string, string][] = [];
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) pairs.push([k.toLowerCase(), String(x)]);
    else pairs.push([k.toLowerCase(), String(v)]);
  }
  return { statusCode: res.statusCode, headers: pairs, body: res.body };
}

async function readBody(stream: RawResponse['body'], max: number, headers: [string, string][]): Promise<Buffer> {
  const declared = Number(headers.find(([k]) => k === 'content-length')?.[1]);
  if (Number.isFinite(declared) && declared > max) {
    stream.destroy();
    throw new EgressFetchError(`content size over limit: ${max}`, 'max-size');
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = chunk as Buffer;
    total += b.length;
    if (total > max) {
      stream.destroy();
      throw new EgressFetchError(`content size over limit: ${max}`, 'max-size');
    }
    chunks.push(b);
  }
  const raw = Buffer.concat(chunks, total);
  const encoding = headers
    .find(([k]) => k === 'content-encoding')?.[1]
    ?.trim()
    .toLowerCase();
  if (!encoding || encoding === 'identity' || raw.length === 0) return raw;
  // We ask for identity; a server that compresses anyway is decoded with the same output limit (no zip bombs).
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(raw, { maxOutputLength: max });
    if (encoding === 'deflate') return inflateSync(raw, { maxOutputLength: max });
    if (encoding === 'br') return brotliDecompressSync(raw, { maxOutputLength: max });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new EgressFetchError(`content size over limit: ${max}`, 'max-size');
    throw new EgressFetchError('invalid response body: decompression failed', 'system', 'Z_DATA_ERROR');
  }
  return raw;
}

function sanitizeHeaders(input: ReadonlyArray<readonly [string, string]>): [string, string][] {
  const out: [string, string][] = [];
  let size = 0;
  const named = connectionNamed(input.filter((pair) => Array.isArray(pair) && pair.length === 2));
  for (const pair of input) {
    if (!Array.isArray(pair) || pair.length !== 2) continue;
    const name = String(pair[0]).toLowerCase();
    const value = String(pair[1]).trim();
    if (!TOKEN.test(name)) throw new EgressFetchError(`${name} is not a legal HTTP header name`, 'invalid');
    if (/[\0\r\n]/.test(value)) throw new EgressFetchError(`Invalid header value for ${name}`, 'invalid');
    if (DROP_REQUEST_HEADERS.has(name) || named.has(name) || name.startsWith('proxy-') || name.startsWith('sec-')) continue;
    size += name.length + value.length + 4;
    if (out.length >= 100 || size > 64 * 1024) throw new EgressFetchError('Too many or too large request headers', 'invalid');
    out.push([name, value]);
  }
  return out;
}

function toFetchError(e: unknown, url: string): EgressFetchError {
  if (e instanceof EgressFetchError) return e;
  if (e instanceof EgressDeniedError) return new EgressFetchError(`request to ${safeUrl(url)} refused: ${e.message}`, 'egress-denied', e.code);
  const err = e as NodeJS.ErrnoException & { cause?: unknown };
  const cause = err?.cause as (NodeJS.ErrnoException & Error) | undefined;
  if (cause instanceof EgressDeniedError) {
    return new EgressFetchError(`request to ${safeUrl(url)} refused: ${cause.message}`, 'egress-denied', cause.code);
  }
  if (err instanceof EgressDeniedError) return new EgressFetchError(err.message, 'egress-denied', err.code);
  const code = typeof err?.code === 'string' ? err.code : typeof cause?.code === 'string' ? cause.code : undefined;
  if (err?.name === 'AbortError') return new EgressFetchError('The operation was aborted', 'aborted');
  const reason = code ? `${code}` : 'network error';
  return new EgressFetchError(`request to ${safeUrl(url)} failed, reason: ${reason}`, 'system', code);
}

function safeUrl(u: string): string {
  try {
    const url = new URL(u);
    url.username = '';
    url.password = '';
    return url.href.slice(0, 2048);
  } catch {
    return String(u).slice(0, 2048);
  }
}
