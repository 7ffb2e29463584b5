/**
 * The `crypto` module: hashes and HMACs computed by the worker (`host('digest')`), random bytes and UUIDs from the
 * worker's CSPRNG. No ciphers, signatures or KeyObjects. The data is copied in; nothing of the host's crypto is
 * reachable.
 */
import { bufferOf, getBuffer, type BufferInstance } from './buffer';
import { domException } from './dom-exception';
import { codedError, host, links, named, once } from './host';
import { asBytes } from './utf8';

const MAX_RANDOM_BYTES = 1048576;

function checkSize(n: unknown): number {
  if (typeof n !== 'number' || !(n >= 0) || n > 0x7fffffff) throw new RangeError('The argument "size" is invalid. Received ' + String(n));
  return Math.floor(n);
}

function toBytes(data: unknown, encoding: unknown, what: string): Uint8Array {
  if (typeof data === 'string') return getBuffer().from(data, (encoding ?? 'utf8') as string);
  const b = asBytes(data);
  if (b === null) throw new TypeError('The "' + what + '" argument must be of type string or an instance of Buffer, TypedArray, or DataView.');
  return b;
}

function normHash(alg: unknown): string {
  const a = String(alg).toLowerCase().replace(/^rsa-/, '').replace('-', '');
  if (links.opts.hashes.indexOf(a) < 0) throw new Error('Digest method not supported');
  return a;
}

function finalized(): Error {
  return codedError(new Error('Digest already called'), 'ERR_CRYPTO_HASH_FINALIZED');
}

class Hash {
  private chunks: Uint8Array[] = [];
  private done = false;
  constructor(
    private readonly alg: string,
    private readonly key: Uint8Array | null,
  ) {}
  update(data: unknown, encoding?: unknown): this {
    if (this.done) throw finalized();
    this.chunks.push(Uint8Array.from(toBytes(data, encoding, 'data')));
    return this;
  }
  digest(encoding?: string): BufferInstance | string {
    if (this.done) throw finalized();
    this.done = true;
    const out = bufferOf(host('digest', this.alg, this.key, getBuffer().concat(this.chunks)) as Uint8Array);
    this.chunks = [];
    return encoding === undefined || encoding === 'buffer' ? out : out.toString(encoding);
  }
  copy(): Hash {
    if (this.done) throw finalized();
    const h = new Hash(this.alg, this.key);
    h.chunks = this.chunks.slice();
    return h;
  }
}

named(Hash, 'Hash');

function keyBytes(key: unknown): Uint8Array {
  if (key !== null && typeof key === 'object' && !ArrayBuffer.isView(key) && !(key instanceof ArrayBuffer)) {
    throw new TypeError('Only string and Buffer keys are supported in the sandbox');
  }
  return toBytes(key, 'utf8', 'key');
}

type Callback<T> = (err: null, value: T) => void;

function randomBytes(size: unknown, cb?: Callback<BufferInstance>): BufferInstance | undefined {
  const n = checkSize(size);
  if (n > MAX_RANDOM_BYTES) throw new RangeError('randomBytes is limited to 1 MiB per call in the sandbox');
  const b = bufferOf(host('random', n) as Uint8Array);
  if (typeof cb === 'function') {
    void Promise.resolve().then(() => cb(null, b));
    return undefined;
  }
  return b;
}

function getRandomValues<T>(arr: T): T {
  const b = asBytes(arr);
  if (b === null || arr instanceof DataView || arr instanceof Float32Array || arr instanceof Float64Array) {
    throw domException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
  }
  if (b.length > 65536) throw domException('The ArrayBufferView byte length exceeds 65536', 'QuotaExceededError');
  b.set(host('random', b.length) as Uint8Array);
  return arr;
}

function timingSafeEqual(a: unknown, b: unknown): boolean {
  const x = asBytes(a);
  const y = asBytes(b);
  if (x === null || y === null) throw new TypeError('The "buf1" and "buf2" arguments must be Buffers, TypedArrays or DataViews');
  if (x.length !== y.length) throw codedError(new RangeError('Input buffers must have the same byte length'), 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH');
  let d = 0;
  for (let i = 0; i < x.length; i++) d |= x[i] ^ y[i];
  return d === 0;
}

function randomInt(minArg: unknown, maxArg?: unknown, cbArg?: unknown): number | undefined {
  let min = minArg;
  let max = maxArg;
  let cb = cbArg;
  if (max === undefined || typeof max === 'function') {
    cb = max;
    max = min;
    min = 0;
  }
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || (max as number) <= (min as number)) {
    throw new RangeError('The value of "max" is out of range. It must be greater than the value of "min"');
  }
  const range = (max as number) - (min as number);
  const b = host('random', 6) as Uint8Array;
  const r = ((b[0] * 256 + b[1]) * 256 + b[2]) * 16777216 + ((b[3] * 256 + b[4]) * 256 + b[5]);
  const v = (min as number) + Math.floor((r / 281474976710656) * range);
  if (typeof cb === 'function') {
    void Promise.resolve().then(() => (cb as Callback<number>)(null, v));
    return undefined;
  }
  return v;
}

const randomUUID = () => host('uuid') as string;

export const getCryptoModule = once(() => ({
  createHash: (alg: unknown) => new Hash(normHash(alg), null),
  createHmac: (alg: unknown, key: unknown) => new Hash(normHash(alg), keyBytes(key)),
  randomBytes,
  pseudoRandomBytes: randomBytes,
  randomUUID,
  randomInt,
  getRandomValues,
  timingSafeEqual,
  getHashes: () => links.opts.hashes.slice(),
  webcrypto: { getRandomValues, randomUUID },
}));
