/**
 * The stateless operations the in-isolate runtime asks of its worker through `hostSync`: digests and HMACs, random
 * bytes and UUIDs, WHATWG URL parsing (V8 alone has none). Inputs are copied primitives and byte arrays, checked
 * here; outputs are the same. Timers and outbound calls, which belong to an invocation, are the worker's own.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';

export const HASHES = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'];
const MAX_DIGEST_INPUT = 16 * 1024 * 1024;
const MAX_RANDOM_BYTES = 1024 * 1024;
const MAX_URL_CHARS = 65536;
const URL_SETTABLE = ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];

/** `[true, value]` or `[false, message, code?]`: what `hostSync` returns into the isolate. */
export type Sync = [true, unknown] | [false, string, string?];

function bytesOf(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

function urlParts(u: URL): Record<string, string> {
  return {
    href: u.href,
    origin: u.origin,
    protocol: u.protocol,
    username: u.username,
    password: u.password,
    host: u.host,
    hostname: u.hostname,
    port: u.port,
    pathname: u.pathname,
    search: u.search,
    hash: u.hash,
  };
}

/** One stateless operation, or null when `op` is not one of them. Throws only on invalid URLs (a TypeError). */
export function statelessHostOp(op: unknown, a: unknown, b: unknown, c: unknown): Sync | null {
  switch (op) {
    case 'digest': {
      const alg = String(a);
      if (!HASHES.includes(alg)) return [false, 'Digest method not supported'];
      if (!(c instanceof Uint8Array) || c.byteLength > MAX_DIGEST_INPUT) return [false, 'Invalid digest input'];
      if (b !== null && !(b instanceof Uint8Array)) return [false, 'Invalid key'];
      const h = b instanceof Uint8Array ? createHmac(alg, b) : createHash(alg);
      return [true, bytesOf(h.update(c).digest())];
    }
    case 'random': {
      const n = Number(a);
      if (!Number.isInteger(n) || n < 0 || n > MAX_RANDOM_BYTES) return [false, 'Invalid size'];
      return [true, bytesOf(randomBytes(n))];
    }
    case 'uuid':
      return [true, randomUUID()];
    case 'url': {
      if (typeof a !== 'string' || (b !== undefined && typeof b !== 'string')) return [false, 'Invalid URL'];
      if (a.length > MAX_URL_CHARS) return [false, 'Invalid URL'];
      return [true, urlParts(b === undefined ? new URL(a) : new URL(a, b))];
    }
    case 'urlset': {
      if (typeof a !== 'string' || typeof b !== 'string' || typeof c !== 'string') return [false, 'Invalid URL'];
      if (!URL_SETTABLE.includes(b)) return [false, 'Invalid field'];
      const u = new URL(a);
      (u as unknown as Record<string, string>)[b] = c;
      return [true, urlParts(u)];
    }
    default:
      return null;
  }
}
