/**
 * `Buffer` and the `buffer` module: the `buffer` package (Node's API over Uint8Array), plus the `base64url`
 * encoding Node 16 has and the package lacks. The package's base64 decoder already accepts the URL alphabet
 * (`-`, `_`) and missing padding, so decoding maps to it; encoding rewrites base64's output.
 */
import type { Buffer as BufferInstance } from 'buffer';
import { loadBufferModule } from './bundled';
import { once } from './host';

export type BufferClass = ReturnType<typeof loadBufferModule>['Buffer'];
export type { BufferInstance };

type Fn = (this: unknown, ...args: unknown[]) => unknown;

function isBase64url(encoding: unknown): boolean {
  return typeof encoding === 'string' && encoding.toLowerCase() === 'base64url';
}

function toBase64url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function addBase64url(Buffer: BufferClass): void {
  const statics = Buffer as unknown as Record<'from' | 'isEncoding' | 'byteLength', Fn>;
  const proto = Buffer.prototype as unknown as Record<'toString' | 'write', Fn>;
  const { from, isEncoding, byteLength } = statics;
  const { toString, write } = proto;
  statics.from = function (this: unknown, value, encodingOrOffset, length) {
    return from.call(this, value, typeof value === 'string' && isBase64url(encodingOrOffset) ? 'base64' : encodingOrOffset, length);
  };
  statics.isEncoding = function (this: unknown, encoding) {
    return isBase64url(encoding) || isEncoding.call(this, encoding);
  };
  statics.byteLength = function (this: unknown, value, encoding) {
    return byteLength.call(this, value, isBase64url(encoding) ? 'base64' : encoding);
  };
  proto.toString = function (this: unknown, encoding, start, end) {
    if (!isBase64url(encoding)) return toString.call(this, encoding, start, end);
    return toBase64url(String(toString.call(this, 'base64', start, end)));
  };
  proto.write = function (this: unknown, ...args) {
    return write.apply(
      this,
      args.map((a) => (isBase64url(a) ? 'base64' : a)),
    );
  };
}

export const getBuffer = once((): BufferClass => {
  const { Buffer } = loadBufferModule();
  addBase64url(Buffer);
  return Buffer;
});

/** A Buffer over the same memory (no copy). */
export function bufferOf(bytes: Uint8Array): BufferInstance {
  // (there is no SharedArrayBuffer in the isolate)
  return getBuffer().from(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}

/** A Buffer holding a copy. */
export function bufferCopy(bytes: Uint8Array): BufferInstance {
  return getBuffer().from(bytes);
}

export const getBufferModule = once(() => {
  const m = loadBufferModule();
  return {
    Buffer: getBuffer(),
    SlowBuffer: m.SlowBuffer,
    constants: { MAX_LENGTH: m.kMaxLength, MAX_STRING_LENGTH: 536870888 },
    kMaxLength: m.kMaxLength,
    INSPECT_MAX_BYTES: m.INSPECT_MAX_BYTES,
  };
});
