/**
 * The JavaScript that runs inside every fresh isolate context before the formula: it builds the Node 16 surface
 * (Buffer, URL, TextEncoder/TextDecoder, atob/btoa, timers, console, fetch, require of the allow-list, the runtime
 * error classes) and evaluates to the `entry` function the worker calls:
 *
 *   entry('invoke', wrapperFn, reqJson, hostSync, hostLog, optsJson) -> Promise<'R<result json>' | 'E<error json>'>
 *   entry('timer', id)                                               -> 'ok' | 'X' (uncaught exception)
 *   entry('settle', callId, ok, json, bytes)                          -> resolves a pending fetch/svc call
 *
 * Nothing of Node is reachable from here: the only links to the worker are `hostSync` and `hostLog`, plain
 * functions (isolated-vm Callbacks) taking and returning copied primitives and byte arrays. All limits that matter
 * are enforced again on the worker/host side; this code is as untrusted as the formula once the formula runs.
 *
 * Kept as a string (no backticks or dollar-brace inside) so that bundlers and coverage tools cannot rewrite it.
 */
export const ISOLATE_RUNTIME = String.raw`(function () {
'use strict';
const G = globalThis;
const $Object = Object, $Array = Array, $String = String, $Number = Number, $Symbol = Symbol, $Math = Math;
const $Error = Error, $TypeError = TypeError, $RangeError = RangeError, $SyntaxError = SyntaxError;
const $Promise = Promise, $Map = Map, $Set = Set, $WeakMap = WeakMap, $Date = Date, $RegExp = RegExp;
const $Uint8Array = Uint8Array, $ArrayBuffer = ArrayBuffer, $DataView = DataView, $Uint16Array = Uint16Array;
const defineProperty = $Object.defineProperty, freeze = $Object.freeze, keysOf = $Object.keys, create = $Object.create;
const getPrototypeOf = $Object.getPrototypeOf;
const hasOwnProperty = $Object.prototype.hasOwnProperty;
const hasOwn = function (o, k) { return hasOwnProperty.call(o, k); };
const isArray = $Array.isArray;
const isView = $ArrayBuffer.isView;
const jsonParse = JSON.parse, jsonStringify = JSON.stringify;
const fromCharCode = $String.fromCharCode;
const funcToString = Function.prototype.toString;
const ITER = $Symbol.iterator, TO_STRING_TAG = $Symbol.toStringTag;

/* No work may be scheduled by the engine itself, outside the calls the worker makes and bounds: FinalizationRegistry
   cleanup callbacks run as engine tasks after the invocation, with no deadline (issue 11, F4); WeakRef makes garbage
   collection - other invocations' allocations - observable; Atomics.waitAsync and WebAssembly's asynchronous
   compilation post tasks too; SharedArrayBuffer/Atomics.wait could block the worker. The last three are removed;
   WeakRef and FinalizationRegistry are replaced below by inert versions the specification allows (a target is
   never collected while the invocation runs; cleanup callbacks are never called). */
for (const name of ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry', 'WeakRef']) {
  try { delete G[name]; } catch (e) { /* ignore */ }
}

/* Everything sizeable is built on first use: a context costs little until the formula touches it. */
function once(factory) {
  let value, built = false;
  return function () { if (!built) { value = factory(); built = true; } return value; };
}

let hostSync = null;
let hostLog = null;
let opts = { capture: false, maxLogLines: 200, maxLogBytes: 65536, maxResultChars: 1048576, hashes: [] };
let logLines = 0, logBytes = 0, logTruncated = false;

function host(op, a, b, c, d) {
  if (hostSync === null) throw new $Error('The sandbox host is not available here');
  const r = hostSync(op, a, b, c, d);
  if (!isArray(r)) throw new $Error('Sandbox host call failed');
  if (r[0] !== true) {
    const e = new $Error(typeof r[1] === 'string' ? r[1] : 'Sandbox host call failed');
    if (typeof r[2] === 'string') e.code = r[2];
    throw e;
  }
  return r[1];
}

/* ------------------------------------------------------------------ encodings */
function codeUnitsToString(units, n) {
  let s = '';
  for (let i = 0; i < n; i += 8192) s += fromCharCode.apply(null, units.subarray(i, $Math.min(n, i + 8192)));
  return s;
}
function utf8Length(s) {
  let len = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { len += 4; i++; }
    else len += 3;
  }
  return len;
}
function utf8Encode(str) {
  const s = $String(str);
  const n = s.length;
  const out = new $Uint8Array(utf8Length(s));
  let p = 0;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) out[p++] = c;
    else if (c < 0x800) { out[p++] = 0xc0 | (c >> 6); out[p++] = 0x80 | (c & 63); }
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[p++] = 0xf0 | (cp >> 18); out[p++] = 0x80 | ((cp >> 12) & 63);
      out[p++] = 0x80 | ((cp >> 6) & 63); out[p++] = 0x80 | (cp & 63);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      out[p++] = 0xe0 | (c >> 12); out[p++] = 0x80 | ((c >> 6) & 63); out[p++] = 0x80 | (c & 63);
    }
  }
  return out;
}
function utf8Decode(b, start, end, fatal) {
  const units = new $Uint16Array($Math.max(0, end - start));
  let n = 0;
  let i = start;
  while (i < end) {
    const c = b[i];
    if (c < 0x80) { units[n++] = c; i++; continue; }
    let need = 0, cp = 0, lower = 0x80, upper = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 0x1f; }
    else if (c >= 0xe0 && c <= 0xef) { need = 2; cp = c & 0x0f; if (c === 0xe0) lower = 0xa0; if (c === 0xed) upper = 0x9f; }
    else if (c >= 0xf0 && c <= 0xf4) { need = 3; cp = c & 0x07; if (c === 0xf0) lower = 0x90; if (c === 0xf4) upper = 0x8f; }
    else {
      if (fatal) throw new $TypeError('The encoded data was not valid for encoding utf-8');
      units[n++] = 0xfffd; i++; continue;
    }
    let j = i + 1, k = 0;
    for (; k < need && j < end; k++, j++) {
      const cc = b[j];
      if (cc < lower || cc > upper) break;
      lower = 0x80; upper = 0xbf;
      cp = (cp << 6) | (cc & 0x3f);
    }
    i = j;
    if (k !== need) {
      if (fatal) throw new $TypeError('The encoded data was not valid for encoding utf-8');
      units[n++] = 0xfffd;
      continue;
    }
    if (cp >= 0x10000) { cp -= 0x10000; units[n++] = 0xd800 + (cp >> 10); units[n++] = 0xdc00 + (cp & 0x3ff); }
    else units[n++] = cp;
  }
  return codeUnitsToString(units, n);
}
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const b64rev = once(function () {
  const t = new Int16Array(256).fill(-1);
  for (let i = 0; i < 64; i++) { t[B64.charCodeAt(i)] = i; t[B64URL.charCodeAt(i)] = i; }
  return t;
});
function base64Encode(b, start, end, url) {
  const alpha = url ? B64URL : B64;
  let out = '';
  let chunk = '';
  let i = start;
  for (; i + 2 < end; i += 3) {
    const v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    chunk += alpha[v >> 18] + alpha[(v >> 12) & 63] + alpha[(v >> 6) & 63] + alpha[v & 63];
    if (chunk.length > 8192) { out += chunk; chunk = ''; }
  }
  if (end - i === 1) {
    const v = b[i] << 16;
    chunk += alpha[v >> 18] + alpha[(v >> 12) & 63] + (url ? '' : '==');
  } else if (end - i === 2) {
    const v = (b[i] << 16) | (b[i + 1] << 8);
    chunk += alpha[v >> 18] + alpha[(v >> 12) & 63] + alpha[(v >> 6) & 63] + (url ? '' : '=');
  }
  return out + chunk;
}
function base64Decode(s) {
  const B64REV = b64rev();
  const out = new $Uint8Array(((s.length * 3) >> 2) + 3);
  let p = 0, acc = 0, bits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 61) break;
    const v = c < 256 ? B64REV[c] : -1;
    if (v < 0) continue;
    acc = (acc << 6) | v; bits += 6;
    if (bits >= 8) { bits -= 8; out[p++] = (acc >> bits) & 0xff; }
  }
  return out.subarray(0, p);
}
function hexEncode(b, start, end) {
  let s = '';
  for (let i = start; i < end; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return s;
}
function hexDecode(s) {
  const n = s.length >> 1;
  const out = new $Uint8Array(n);
  let p = 0;
  for (; p < n; p++) {
    const h = parseInt(s.substr(p * 2, 2), 16);
    if (!(h >= 0) || !/^[0-9a-fA-F]{2}$/.test(s.substr(p * 2, 2))) break;
    out[p] = h;
  }
  return out.subarray(0, p);
}
function latin1Encode(s) {
  const out = new $Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}
function latin1Decode(b, start, end, mask) {
  const units = new $Uint16Array($Math.max(0, end - start));
  for (let i = start; i < end; i++) units[i - start] = b[i] & mask;
  return codeUnitsToString(units, end - start);
}
function utf16Encode(s) {
  const out = new $Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); out[i * 2] = c & 0xff; out[i * 2 + 1] = c >> 8; }
  return out;
}
function utf16Decode(b, start, end) {
  const n = (end - start) >> 1;
  const units = new $Uint16Array(n);
  for (let i = 0; i < n; i++) units[i] = b[start + i * 2] | (b[start + i * 2 + 1] << 8);
  return codeUnitsToString(units, n);
}
function encodingName(e) {
  switch (e) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'hex': return 'hex';
    case 'base64': return 'base64';
    case 'base64url': return 'base64url';
    case 'latin1': case 'binary': return 'latin1';
    case 'ascii': return 'ascii';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    default: return undefined;
  }
}
function normEnc(enc) {
  if (enc === undefined || enc === null) return 'utf8';
  const e = encodingName($String(enc).toLowerCase());
  if (e === undefined) { const err = new $TypeError('Unknown encoding: ' + enc); err.code = 'ERR_UNKNOWN_ENCODING'; throw err; }
  return e;
}
function encodeString(s, enc) {
  s = $String(s);
  switch (enc) {
    case 'utf8': return utf8Encode(s);
    case 'hex': return hexDecode(s);
    case 'base64': case 'base64url': return base64Decode(s);
    case 'latin1': case 'ascii': return latin1Encode(s);
    default: return utf16Encode(s);
  }
}
function decodeBytes(b, enc, start, end) {
  switch (enc) {
    case 'utf8': return utf8Decode(b, start, end, false);
    case 'hex': return hexEncode(b, start, end);
    case 'base64': return base64Encode(b, start, end, false);
    case 'base64url': return base64Encode(b, start, end, true);
    case 'latin1': return latin1Decode(b, start, end, 0xff);
    case 'ascii': return latin1Decode(b, start, end, 0x7f);
    default: return utf16Decode(b, start, end);
  }
}
function asBytes(v) {
  if (v instanceof $Uint8Array) return v;
  if (isView(v)) return new $Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof $ArrayBuffer) return new $Uint8Array(v);
  return null;
}
function toBytes(data, enc, what) {
  if (typeof data === 'string') return encodeString(data, normEnc(enc));
  const b = asBytes(data);
  if (b === null) throw new $TypeError('The "' + (what || 'data') + '" argument must be of type string or an instance of Buffer, TypedArray, or DataView.');
  return b;
}

/* ------------------------------------------------------------------ Buffer */
function checkSize(n) {
  if (typeof n !== 'number' || !(n >= 0) || n > 0x7fffffff) throw new $RangeError('The argument "size" is invalid. Received ' + n);
  return $Math.floor(n);
}
function clampIndex(v, len, dflt) {
  if (v === undefined) return dflt;
  v = $Math.trunc($Number(v)) || 0;
  if (v < 0) v = 0;
  return v > len ? len : v;
}
function checkOffset(buf, offset, size) {
  offset = offset === undefined ? 0 : offset;
  if (typeof offset !== 'number' || offset % 1 !== 0) throw new $TypeError('The "offset" argument must be an integer');
  if (offset < 0 || offset + size > buf.length) { const e = new $RangeError('The value of "offset" is out of range.'); e.code = 'ERR_OUT_OF_RANGE'; throw e; }
  return offset;
}
function indexOfBytes(hay, needle, from) {
  const n = needle.length, m = hay.length;
  if (n === 0) return from <= m ? from : m;
  outer: for (let i = from; i <= m - n; i++) {
    for (let j = 0; j < n; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
let BufferClass = null;
const getBuffer = once(function () {
class Buffer extends $Uint8Array {
  constructor(a, b, c) {
    if (typeof a === 'number') { super(checkSize(a)); return; }
    if (a instanceof $ArrayBuffer) {
      const off = b === undefined ? 0 : b >>> 0;
      super(a, off, c === undefined ? a.byteLength - off : c >>> 0);
      return;
    }
    return Buffer.from(a, b, c);
  }
  static from(v, encOrOffset, length) {
    if (typeof v === 'string') return fromBytes(encodeString(v, normEnc(encOrOffset)), false);
    if (v instanceof $ArrayBuffer) {
      const off = encOrOffset === undefined ? 0 : encOrOffset >>> 0;
      if (off > v.byteLength) throw new $RangeError('"offset" is outside of buffer bounds');
      return new Buffer(v, off, length === undefined ? v.byteLength - off : $Math.min(length >>> 0, v.byteLength - off));
    }
    if (v instanceof $DataView) return fromBytes(new $Uint8Array(v.buffer, v.byteOffset, v.byteLength), true);
    if (isView(v) || isArray(v)) { const out = new Buffer(v.length >>> 0); out.set(v); return out; }
    if (v !== null && typeof v === 'object') {
      if (v.type === 'Buffer' && isArray(v.data)) return Buffer.from(v.data);
      if (typeof v.valueOf === 'function') { const p = v.valueOf(); if (p !== v && p !== null && p !== undefined) return Buffer.from(p, encOrOffset, length); }
      if (typeof v.length === 'number') { const out = new Buffer(v.length >>> 0); for (let i = 0; i < out.length; i++) out[i] = v[i]; return out; }
    }
    throw new $TypeError('The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.');
  }
  static alloc(size, fill, enc) { const b = new Buffer(checkSize(size)); if (fill !== undefined && fill !== 0) b.fill(fill, 0, b.length, enc); return b; }
  static allocUnsafe(size) { return new Buffer(checkSize(size)); }
  static allocUnsafeSlow(size) { return new Buffer(checkSize(size)); }
  static byteLength(v, enc) {
    if (typeof v === 'string') { const e = normEnc(enc); return e === 'utf8' ? utf8Length(v) : encodeString(v, e).length; }
    if (isView(v) || v instanceof $ArrayBuffer) return v.byteLength;
    throw new $TypeError('The "string" argument must be of type string or an instance of Buffer or ArrayBuffer.');
  }
  static concat(list, totalLength) {
    if (!isArray(list)) throw new $TypeError('The "list" argument must be an instance of Array.');
    let total = 0;
    for (const item of list) { if (!(item instanceof $Uint8Array)) throw new $TypeError('The "list" argument must contain only Buffer or Uint8Array instances'); total += item.length; }
    if (totalLength !== undefined) total = checkSize(totalLength);
    const out = new Buffer(total);
    let p = 0;
    for (const item of list) { if (p >= total) break; const n = $Math.min(item.length, total - p); out.set(n === item.length ? item : item.subarray(0, n), p); p += n; }
    return out;
  }
  static isBuffer(b) { return b instanceof Buffer; }
  static isEncoding(e) { return typeof e === 'string' && encodingName(e.toLowerCase()) !== undefined; }
  static compare(a, b) { return compareBytes(a, b); }
  get parent() { return this.buffer; }
  get offset() { return this.byteOffset; }
  toString(enc, start, end) {
    const e = normEnc(enc);
    const s = clampIndex(start, this.length, 0), t = clampIndex(end, this.length, this.length);
    return t <= s ? '' : decodeBytes(this, e, s, t);
  }
  toLocaleString(enc, start, end) { return this.toString(enc, start, end); }
  toJSON() { return { type: 'Buffer', data: $Array.from(this) }; }
  equals(other) {
    if (!(other instanceof $Uint8Array)) throw new $TypeError('The "otherBuffer" argument must be an instance of Buffer or Uint8Array.');
    return compareBytes(this, other) === 0;
  }
  compare(other) { return compareBytes(this, other); }
  slice(start, end) { return this.subarray(start, end); }
  write(string, offset, length, encoding) {
    if (typeof offset === 'string') { encoding = offset; offset = 0; length = undefined; }
    else if (typeof length === 'string') { encoding = length; length = undefined; }
    offset = offset === undefined ? 0 : offset >>> 0;
    const bytes = encodeString(string, normEnc(encoding));
    const room = $Math.max(0, this.length - offset);
    const n = $Math.min(bytes.length, room, length === undefined ? room : length >>> 0);
    this.set(bytes.subarray(0, n), offset);
    return n;
  }
  fill(value, offset, end, encoding) {
    if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; }
    else if (typeof end === 'string') { encoding = end; end = this.length; }
    const s = clampIndex(offset, this.length, 0), t = clampIndex(end, this.length, this.length);
    if (typeof value === 'string' || isView(value)) {
      const bytes = typeof value === 'string' ? encodeString(value, normEnc(encoding)) : asBytes(value);
      if (bytes.length === 0) { super.fill(0, s, t); return this; }
      for (let i = s, j = 0; i < t; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
      return this;
    }
    super.fill($Number(value) & 255, s, t);
    return this;
  }
  indexOf(value, byteOffset, encoding) {
    if (typeof byteOffset === 'string') { encoding = byteOffset; byteOffset = 0; }
    let from = byteOffset === undefined ? 0 : $Math.trunc($Number(byteOffset)) || 0;
    if (from < 0) from = $Math.max(0, this.length + from);
    if (typeof value === 'number') return super.indexOf(value & 255, from);
    return indexOfBytes(this, toBytes(value, encoding, 'value'), from);
  }
  includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }
  copy(target, targetStart, sourceStart, sourceEnd) {
    const ts = targetStart === undefined ? 0 : targetStart >>> 0;
    const ss = sourceStart === undefined ? 0 : sourceStart >>> 0;
    const se = sourceEnd === undefined ? this.length : $Math.min(sourceEnd >>> 0, this.length);
    const n = $Math.max(0, $Math.min(se - ss, target.length - ts));
    if (n > 0) target.set(this.subarray(ss, ss + n), ts);
    return n;
  }
  readUInt8(o) { o = checkOffset(this, o, 1); return this[o]; }
  readInt8(o) { o = checkOffset(this, o, 1); const v = this[o]; return v > 127 ? v - 256 : v; }
  readUInt16LE(o) { o = checkOffset(this, o, 2); return dv(this).getUint16(o, true); }
  readUInt16BE(o) { o = checkOffset(this, o, 2); return dv(this).getUint16(o, false); }
  readInt16LE(o) { o = checkOffset(this, o, 2); return dv(this).getInt16(o, true); }
  readInt16BE(o) { o = checkOffset(this, o, 2); return dv(this).getInt16(o, false); }
  readUInt32LE(o) { o = checkOffset(this, o, 4); return dv(this).getUint32(o, true); }
  readUInt32BE(o) { o = checkOffset(this, o, 4); return dv(this).getUint32(o, false); }
  readInt32LE(o) { o = checkOffset(this, o, 4); return dv(this).getInt32(o, true); }
  readInt32BE(o) { o = checkOffset(this, o, 4); return dv(this).getInt32(o, false); }
  readDoubleLE(o) { o = checkOffset(this, o, 8); return dv(this).getFloat64(o, true); }
  readDoubleBE(o) { o = checkOffset(this, o, 8); return dv(this).getFloat64(o, false); }
  readBigUInt64BE(o) { o = checkOffset(this, o, 8); return dv(this).getBigUint64(o, false); }
  readBigUInt64LE(o) { o = checkOffset(this, o, 8); return dv(this).getBigUint64(o, true); }
  writeUInt8(v, o) { o = checkOffset(this, o, 1); this[o] = v; return o + 1; }
  writeInt8(v, o) { o = checkOffset(this, o, 1); this[o] = v & 255; return o + 1; }
  writeUInt16LE(v, o) { o = checkOffset(this, o, 2); dv(this).setUint16(o, v, true); return o + 2; }
  writeUInt16BE(v, o) { o = checkOffset(this, o, 2); dv(this).setUint16(o, v, false); return o + 2; }
  writeInt16LE(v, o) { o = checkOffset(this, o, 2); dv(this).setInt16(o, v, true); return o + 2; }
  writeInt16BE(v, o) { o = checkOffset(this, o, 2); dv(this).setInt16(o, v, false); return o + 2; }
  writeUInt32LE(v, o) { o = checkOffset(this, o, 4); dv(this).setUint32(o, v, true); return o + 4; }
  writeUInt32BE(v, o) { o = checkOffset(this, o, 4); dv(this).setUint32(o, v, false); return o + 4; }
  writeInt32LE(v, o) { o = checkOffset(this, o, 4); dv(this).setInt32(o, v, true); return o + 4; }
  writeInt32BE(v, o) { o = checkOffset(this, o, 4); dv(this).setInt32(o, v, false); return o + 4; }
  writeDoubleLE(v, o) { o = checkOffset(this, o, 8); dv(this).setFloat64(o, v, true); return o + 8; }
  writeDoubleBE(v, o) { o = checkOffset(this, o, 8); dv(this).setFloat64(o, v, false); return o + 8; }
}
function dv(b) { return new $DataView(b.buffer, b.byteOffset, b.byteLength); }
for (const name of ['readUInt8', 'readUInt16LE', 'readUInt16BE', 'readUInt32LE', 'readUInt32BE', 'writeUInt8', 'writeUInt16LE',
  'writeUInt16BE', 'writeUInt32LE', 'writeUInt32BE', 'readBigUInt64BE', 'readBigUInt64LE']) {
  defineProperty(Buffer.prototype, name.replace('UInt', 'Uint'), { value: Buffer.prototype[name], writable: true, configurable: true });
}
Buffer.poolSize = 8192;
BufferClass = Buffer;
return Buffer;
});
function fromBytes(bytes, copy) {
  const Buffer = getBuffer();
  if (copy) { const out = new Buffer(bytes.length); out.set(bytes); return out; }
  return new Buffer(bytes.buffer, bytes.byteOffset, bytes.length);
}
function compareBytes(a, b) {
  if (!(a instanceof $Uint8Array) || !(b instanceof $Uint8Array)) throw new $TypeError('The arguments must be Buffers or Uint8Arrays');
  const n = $Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/* ------------------------------------------------------------------ atob / btoa / TextEncoder / TextDecoder */
const getDOMException = once(function () {
  return class DOMException extends $Error {
    constructor(message, name) {
      super(message === undefined ? '' : $String(message));
      defineProperty(this, 'name', { value: name === undefined ? 'Error' : $String(name), writable: true, configurable: true });
    }
  };
});
function domException(message, name) { const D = getDOMException(); return new D(message, name); }
function atob(input) {
  if (arguments.length === 0) throw new $TypeError('The "data" argument must be specified');
  let s = $String(input).replace(/[\t\n\f\r ]/g, '');
  if (s.length % 4 === 0) s = s.replace(/==?$/, '');
  if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw domException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  const b = base64Decode(s);
  return latin1Decode(b, 0, b.length, 0xff);
}
function btoa(input) {
  if (arguments.length === 0) throw new $TypeError('The "data" argument must be specified');
  const s = $String(input);
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 255) throw domException('Invalid character', 'InvalidCharacterError');
  const b = latin1Encode(s);
  return base64Encode(b, 0, b.length, false);
}
const getTextCodecs = once(function () {
class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input) { return utf8Encode(input === undefined ? '' : input); }
  encodeInto(src, dest) {
    const bytes = utf8Encode(src);
    let n = $Math.min(bytes.length, dest.length);
    while (n > 0 && n < bytes.length && (bytes[n] & 0xc0) === 0x80) n--;
    dest.set(bytes.subarray(0, n));
    return { read: utf8Decode(bytes, 0, n, false).length, written: n };
  }
}
const DECODER_LABELS = create(null);
for (const l of ['utf-8', 'utf8', 'unicode-1-1-utf-8']) DECODER_LABELS[l] = 'utf-8';
for (const l of ['utf-16le', 'utf-16']) DECODER_LABELS[l] = 'utf-16le';
for (const l of ['latin1', 'iso-8859-1', 'windows-1252', 'ascii', 'us-ascii']) DECODER_LABELS[l] = 'windows-1252';
class TextDecoder {
  constructor(label, options) {
    const enc = DECODER_LABELS[$String(label === undefined ? 'utf-8' : label).trim().toLowerCase()];
    if (enc === undefined) { const e = new $RangeError('The "' + label + '" encoding is not supported'); e.code = 'ERR_ENCODING_NOT_SUPPORTED'; throw e; }
    this._enc = enc;
    this._fatal = !!(options && options.fatal);
    this._ignoreBOM = !!(options && options.ignoreBOM);
  }
  get encoding() { return this._enc; }
  get fatal() { return this._fatal; }
  get ignoreBOM() { return this._ignoreBOM; }
  decode(input) {
    if (input === undefined) return '';
    const b = asBytes(input);
    if (b === null) throw new $TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView.');
    if (this._enc === 'utf-8') {
      const start = !this._ignoreBOM && b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
      return utf8Decode(b, start, b.length, this._fatal);
    }
    if (this._enc === 'utf-16le') {
      const start = !this._ignoreBOM && b.length >= 2 && b[0] === 0xff && b[1] === 0xfe ? 2 : 0;
      return utf16Decode(b, start, b.length);
    }
    return latin1Decode(b, 0, b.length, 0xff);
  }
}
return { TextEncoder: TextEncoder, TextDecoder: TextDecoder };
});

/* ------------------------------------------------------------------ URLSearchParams / URL */
const UNRESERVED = /[A-Za-z0-9*\-._]/;
function formEncode(s) {
  const b = utf8Encode(s);
  let out = '';
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === 0x20) out += '+';
    else if (c < 0x80 && UNRESERVED.test(fromCharCode(c))) out += fromCharCode(c);
    else out += '%' + (c < 16 ? '0' : '') + c.toString(16).toUpperCase();
  }
  return out;
}
function percentDecode(s) {
  const b = utf8Encode(s);
  const out = new $Uint8Array(b.length);
  let p = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === 0x25 && i + 2 < b.length && /^[0-9A-Fa-f]{2}$/.test(fromCharCode(b[i + 1], b[i + 2]))) {
      out[p++] = parseInt(fromCharCode(b[i + 1], b[i + 2]), 16); i += 2;
    } else out[p++] = c;
  }
  return utf8Decode(out, 0, p, false);
}
function parseQuery(q) {
  const list = [];
  if (q.length > 0 && q[0] === '?') q = q.slice(1);
  for (const part of q.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq >= 0 ? part.slice(0, eq) : part;
    const value = eq >= 0 ? part.slice(eq + 1) : '';
    list.push([percentDecode(name.replace(/\+/g, ' ')), percentDecode(value.replace(/\+/g, ' '))]);
  }
  return list;
}
let URLClass = null, URLSearchParamsClass = null;
const getUrlClasses = once(function () {
const SP_UPDATE = $Symbol('update');
const SP_SET_LIST = $Symbol('setList');
class URLSearchParams {
  constructor(init) {
    this._list = [];
    this._onChange = null;
    if (init === undefined || init === null) return;
    if (init instanceof URLSearchParams) { this._list = init._list.map(function (p) { return [p[0], p[1]]; }); return; }
    if (typeof init === 'object' || typeof init === 'function') {
      if (typeof init[ITER] === 'function') {
        for (const pair of init) {
          const p = $Array.from(pair);
          if (p.length !== 2) throw new $TypeError('Each query pair must be an iterable [name, value] tuple');
          this._list.push([$String(p[0]), $String(p[1])]);
        }
      } else {
        for (const k of keysOf(init)) this._list.push([k, $String(init[k])]);
      }
      return;
    }
    this._list = parseQuery($String(init));
  }
  [SP_SET_LIST](query) { this._list = parseQuery(query); }
  [SP_UPDATE]() { if (this._onChange !== null) this._onChange(this.toString()); }
  get size() { return this._list.length; }
  append(name, value) { this._list.push([$String(name), $String(value)]); this[SP_UPDATE](); }
  delete(name, value) {
    name = $String(name);
    this._list = this._list.filter(function (p) { return !(p[0] === name && (value === undefined || p[1] === $String(value))); });
    this[SP_UPDATE]();
  }
  get(name) { name = $String(name); for (const p of this._list) if (p[0] === name) return p[1]; return null; }
  getAll(name) { name = $String(name); return this._list.filter(function (p) { return p[0] === name; }).map(function (p) { return p[1]; }); }
  has(name, value) { name = $String(name); return this._list.some(function (p) { return p[0] === name && (value === undefined || p[1] === $String(value)); }); }
  set(name, value) {
    name = $String(name); value = $String(value);
    const out = [];
    let found = false;
    for (const p of this._list) {
      if (p[0] !== name) out.push(p);
      else if (!found) { out.push([name, value]); found = true; }
    }
    if (!found) out.push([name, value]);
    this._list = out;
    this[SP_UPDATE]();
  }
  sort() {
    const indexed = this._list.map(function (p, i) { return [p, i]; });
    indexed.sort(function (a, b) { return a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]; });
    this._list = indexed.map(function (x) { return x[0]; });
    this[SP_UPDATE]();
  }
  forEach(cb, thisArg) { for (const p of this._list.slice()) cb.call(thisArg, p[1], p[0], this); }
  keys() { return this._list.map(function (p) { return p[0]; })[ITER](); }
  values() { return this._list.map(function (p) { return p[1]; })[ITER](); }
  entries() { return this._list.map(function (p) { return [p[0], p[1]]; })[ITER](); }
  [ITER]() { return this.entries(); }
  toString() { return this._list.map(function (p) { return formEncode(p[0]) + '=' + formEncode(p[1]); }).join('&'); }
  get [TO_STRING_TAG]() { return 'URLSearchParams'; }
}
function invalidUrl(input) {
  const e = new $TypeError('Invalid URL');
  e.code = 'ERR_INVALID_URL';
  e.input = input;
  return e;
}
function parseUrl(input, base) {
  const r = hostSync === null ? null : hostSync('url', input, base);
  if (!isArray(r) || r[0] !== true) throw invalidUrl(input);
  return r[1];
}
const URL_FIELDS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];
class URL {
  constructor(input, base) {
    const s = $String(input);
    this._c = parseUrl(s, base === undefined ? undefined : $String(base));
    this._sp = null;
  }
  static canParse(input, base) { try { parseUrl($String(input), base === undefined ? undefined : $String(base)); return true; } catch (e) { return false; } }
  _set(field, value) {
    const r = hostSync === null ? null : hostSync('urlset', this._c.href, field, $String(value));
    if (!isArray(r) || r[0] !== true) { if (field === 'href') throw invalidUrl(value); return; }
    this._c = r[1];
    if (this._sp !== null) this._sp[SP_SET_LIST](this._c.search);
  }
  get searchParams() {
    if (this._sp === null) {
      const self = this;
      this._sp = new URLSearchParams(this._c.search);
      this._sp._onChange = function (q) { self._set('search', q); };
    }
    return this._sp;
  }
  toString() { return this._c.href; }
  toJSON() { return this._c.href; }
  get [TO_STRING_TAG]() { return 'URL'; }
}
for (const f of URL_FIELDS) {
  const desc = { get: function () { return this._c[f]; }, configurable: true, enumerable: true };
  if (f !== 'origin') desc.set = function (v) { this._set(f, v); };
  defineProperty(URL.prototype, f, desc);
}
URLClass = URL;
URLSearchParamsClass = URLSearchParams;
return { URL: URL, URLSearchParams: URLSearchParams };
});

/* ------------------------------------------------------------------ inspect / format / console */
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
function inspect(v, options) {
  const depthLimit = options && typeof options.depth === 'number' ? options.depth : 2;
  const seen = [];
  function fmt(x, depth, top) {
    switch (typeof x) {
      case 'string': return top ? x : "'" + x.replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
      case 'number': return x === 0 && 1 / x < 0 ? '-0' : $String(x);
      case 'bigint': return $String(x) + 'n';
      case 'boolean': case 'undefined': return $String(x);
      case 'symbol': return x.toString();
      case 'function': {
        let src = '';
        try { src = funcToString.call(x); } catch (e) { src = ''; }
        return (src.slice(0, 5) === 'class' ? '[class ' : '[Function: ') + (x.name || '(anonymous)') + ']';
      }
    }
    if (x === null) return 'null';
    if (seen.indexOf(x) >= 0) return '[Circular *1]';
    try {
      if (x instanceof $Error) return x.stack ? $String(x.stack) : $String(x);
      if (BufferClass !== null && x instanceof BufferClass) {
        let s = '<Buffer';
        for (let i = 0; i < $Math.min(x.length, 50); i++) s += ' ' + (x[i] < 16 ? '0' : '') + x[i].toString(16);
        return s + (x.length > 50 ? ' ... ' + (x.length - 50) + ' more bytes>' : '>');
      }
      if (x instanceof $Date) return isNaN(x.getTime()) ? 'Invalid Date' : x.toISOString();
      if (x instanceof $RegExp) return $String(x);
      if (URLClass !== null && x instanceof URLClass) return "URL { href: '" + x.href + "' }";
      if (x instanceof $Promise) return 'Promise { <pending> }';
      if (depth > depthLimit) return isArray(x) ? '[Array]' : '[Object]';
      seen.push(x);
      try {
        if (isArray(x) || isView(x)) {
          const n = $Math.min(x.length, 100);
          const items = [];
          for (let i = 0; i < n; i++) items.push(fmt(x[i], depth + 1, false));
          if (x.length > n) items.push('... ' + (x.length - n) + ' more items');
          const prefix = isArray(x) ? '' : (x.constructor && x.constructor.name ? x.constructor.name : 'TypedArray') + '(' + x.length + ') ';
          return prefix + (items.length ? '[ ' + items.join(', ') + ' ]' : '[]');
        }
        if (x instanceof $Map) {
          const items = [];
          for (const e of x) { items.push(fmt(e[0], depth + 1, false) + ' => ' + fmt(e[1], depth + 1, false)); if (items.length >= 100) break; }
          return 'Map(' + x.size + ') {' + (items.length ? ' ' + items.join(', ') + ' ' : '') + '}';
        }
        if (x instanceof $Set) {
          const items = [];
          for (const e of x) { items.push(fmt(e, depth + 1, false)); if (items.length >= 100) break; }
          return 'Set(' + x.size + ') {' + (items.length ? ' ' + items.join(', ') + ' ' : '') + '}';
        }
        const ks = keysOf(x);
        const items = [];
        for (let i = 0; i < $Math.min(ks.length, 100); i++) {
          const k = ks[i];
          let val;
          try { val = fmt(x[k], depth + 1, false); } catch (e) { val = '[Getter]'; }
          items.push((IDENT.test(k) ? k : "'" + k + "'") + ': ' + val);
        }
        if (ks.length > 100) items.push('... ' + (ks.length - 100) + ' more items');
        const proto = getPrototypeOf(x);
        const name = proto === null ? '[Object: null prototype] ' : proto !== $Object.prototype && proto.constructor && proto.constructor.name ? proto.constructor.name + ' ' : '';
        return name + (items.length ? '{ ' + items.join(', ') + ' }' : '{}');
      } finally { seen.pop(); }
    } catch (e) {
      return '[object]';
    }
  }
  return fmt(v, 0, false);
}
function format() {
  const args = arguments;
  let i = 0;
  let out = '';
  if (typeof args[0] === 'string') {
    const f = args[0];
    i = 1;
    let last = 0;
    for (let p = 0; p < f.length - 1; p++) {
      if (f.charCodeAt(p) !== 37) continue;
      const c = f[p + 1];
      let rep = null;
      if (c === '%') { out += f.slice(last, p) + '%'; last = p + 2; p++; continue; }
      if (i >= args.length) continue;
      if (c === 's') { const a = args[i++]; rep = typeof a === 'string' ? a : typeof a === 'object' && a !== null ? inspect(a, { depth: 1 }) : inspect(a); }
      else if (c === 'd' || c === 'i') { const a = args[i++]; rep = typeof a === 'bigint' ? a + 'n' : $String(c === 'i' ? $Math.trunc($Number(a)) : $Number(a)); }
      else if (c === 'f') rep = $String(parseFloat(args[i++]));
      else if (c === 'j') { try { rep = jsonStringify(args[i++]); } catch (e) { rep = '[Circular]'; } }
      else if (c === 'o' || c === 'O') rep = inspect(args[i++], { depth: c === 'o' ? 4 : 2 });
      else if (c === 'c') { i++; rep = ''; }
      if (rep !== null) { out += f.slice(last, p) + rep; last = p + 2; p++; }
    }
    out += f.slice(last);
  }
  for (; i < args.length; i++) {
    const a = args[i];
    out += (out.length || i > 0 ? ' ' : '') + (typeof a === 'string' ? a : inspect(a));
  }
  return out;
}
function emit(level, line) {
  if (!opts.capture || hostLog === null || logTruncated) return;
  line = $String(line);
  if (line.length > 8192) line = line.slice(0, 8192) + '... [truncated]';
  logLines++;
  logBytes += line.length;
  if (logLines > opts.maxLogLines || logBytes > opts.maxLogBytes) {
    logTruncated = true;
    hostLog('warn', '... [log output truncated]');
    return;
  }
  hostLog(level, line);
}
let groupIndent = '';
const counters = new $Map();
const timersLabels = new $Map();
function makeLogger(level) {
  return function () { emit(level, groupIndent + format.apply(null, arguments)); };
}
const getConsole = once(function () { return {
  log: makeLogger('log'), info: makeLogger('info'), debug: makeLogger('debug'), warn: makeLogger('warn'), error: makeLogger('error'),
  trace: function () { const e = new $Error(format.apply(null, arguments)); e.name = 'Trace'; emit('error', groupIndent + e.stack); },
  dir: function (o, options) { emit('log', groupIndent + inspect(o, options)); },
  table: function (data) { emit('log', groupIndent + inspect(data, { depth: 3 })); },
  assert: function (cond) { if (!cond) { const rest = $Array.prototype.slice.call(arguments, 1); emit('error', groupIndent + 'Assertion failed' + (rest.length ? ': ' + format.apply(null, rest) : '')); } },
  count: function (label) { label = label === undefined ? 'default' : $String(label); const n = (counters.get(label) || 0) + 1; counters.set(label, n); emit('info', groupIndent + label + ': ' + n); },
  countReset: function (label) { counters.delete(label === undefined ? 'default' : $String(label)); },
  time: function (label) { timersLabels.set(label === undefined ? 'default' : $String(label), $Date.now()); },
  timeEnd: function (label) { label = label === undefined ? 'default' : $String(label); const t = timersLabels.get(label); if (t !== undefined) { timersLabels.delete(label); emit('info', groupIndent + label + ': ' + ($Date.now() - t) + 'ms'); } },
  timeLog: function (label) { label = label === undefined ? 'default' : $String(label); const t = timersLabels.get(label); if (t !== undefined) emit('info', groupIndent + label + ': ' + ($Date.now() - t) + 'ms'); },
  group: function () { if (arguments.length) emit('log', groupIndent + format.apply(null, arguments)); groupIndent += '  '; },
  groupCollapsed: function () { if (arguments.length) emit('log', groupIndent + format.apply(null, arguments)); groupIndent += '  '; },
  groupEnd: function () { groupIndent = groupIndent.slice(2); },
}; });

/* ------------------------------------------------------------------ timers */
const timers = new $Map();
let timerSeq = 0;
class Timeout {
  constructor(id, kind) { this._id = id; this._kind = kind; }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return true; }
  refresh() { return this; }
  [$Symbol.toPrimitive]() { return this._id; }
}
function addTimer(kind, fn, ms, args) {
  if (typeof fn !== 'function') {
    const e = new $TypeError('The "callback" argument must be of type function. Received ' + inspect(fn));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  let delay = $Number(ms);
  if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
  const id = ++timerSeq;
  host('timer', id, kind === 'immediate' ? 0 : delay, kind === 'interval');
  timers.set(id, { fn: fn, args: args, repeat: kind === 'interval' });
  return new Timeout(id, kind);
}
function clearAnyTimer(t) {
  if (t === null || t === undefined) return;
  const id = typeof t === 'object' ? t._id : $Number(t);
  if (!timers.has(id)) return;
  timers.delete(id);
  host('untimer', id);
}
function setTimeout(fn, ms) { return addTimer('timeout', fn, ms, $Array.prototype.slice.call(arguments, 2)); }
function setInterval(fn, ms) { return addTimer('interval', fn, ms, $Array.prototype.slice.call(arguments, 2)); }
function setImmediate(fn) { const t = addTimer('immediate', fn, 0, $Array.prototype.slice.call(arguments, 1)); return t; }
function queueMicrotask(fn) {
  if (typeof fn !== 'function') throw new $TypeError('The "callback" argument must be of type function.');
  $Promise.resolve().then(function () { fn(); });
}
let uncaught = null;
function fireTimer(id) {
  const t = timers.get(id);
  if (t === undefined) return 'gone';
  if (!t.repeat) timers.delete(id);
  try {
    t.fn.apply(undefined, t.args);
  } catch (e) {
    uncaught = e;
    logError('Uncaught exception in a timer callback', e);
    return 'X';
  }
  return 'ok';
}

/* ------------------------------------------------------------------ crypto */
function normHash(alg) {
  const a = $String(alg).toLowerCase().replace(/^rsa-/, '').replace('-', '');
  if (opts.hashes.indexOf(a) < 0) throw new $Error('Digest method not supported');
  return a;
}
class Hash {
  constructor(alg, key) { this._alg = normHash(alg); this._key = key; this._chunks = []; this._done = false; }
  update(data, enc) {
    if (this._done) { const e = new $Error('Digest already called'); e.code = 'ERR_CRYPTO_HASH_FINALIZED'; throw e; }
    const b = toBytes(data, enc, 'data');
    const copy = new $Uint8Array(b.length);
    copy.set(b);
    this._chunks.push(copy);
    return this;
  }
  digest(enc) {
    if (this._done) { const e = new $Error('Digest already called'); e.code = 'ERR_CRYPTO_HASH_FINALIZED'; throw e; }
    this._done = true;
    const out = fromBytes(host('digest', this._alg, this._key, getBuffer().concat(this._chunks)), false);
    this._chunks = [];
    return enc === undefined || enc === 'buffer' ? out : out.toString(enc);
  }
  copy() {
    if (this._done) { const e = new $Error('Digest already called'); e.code = 'ERR_CRYPTO_HASH_FINALIZED'; throw e; }
    const h = new Hash(this._alg, this._key);
    h._chunks = this._chunks.slice();
    return h;
  }
}
function keyBytes(key) {
  if (key !== null && typeof key === 'object' && !isView(key) && !(key instanceof $ArrayBuffer)) throw new $TypeError('Only string and Buffer keys are supported in the sandbox');
  return toBytes(key, 'utf8', 'key');
}
function randomBytes(size, cb) {
  const n = checkSize(size);
  if (n > 1048576) throw new $RangeError('randomBytes is limited to 1 MiB per call in the sandbox');
  const b = fromBytes(host('random', n), false);
  if (typeof cb === 'function') { $Promise.resolve().then(function () { cb(null, b); }); return undefined; }
  return b;
}
function getRandomValues(arr) {
  const b = asBytes(arr);
  if (b === null || arr instanceof $DataView || arr instanceof Float32Array || arr instanceof Float64Array) throw domException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
  if (b.length > 65536) throw domException('The ArrayBufferView byte length exceeds 65536', 'QuotaExceededError');
  b.set(host('random', b.length));
  return arr;
}
function timingSafeEqual(a, b) {
  const x = asBytes(a), y = asBytes(b);
  if (x === null || y === null) throw new $TypeError('The "buf1" and "buf2" arguments must be Buffers, TypedArrays or DataViews');
  if (x.length !== y.length) { const e = new $RangeError('Input buffers must have the same byte length'); e.code = 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH'; throw e; }
  let d = 0;
  for (let i = 0; i < x.length; i++) d |= x[i] ^ y[i];
  return d === 0;
}
function randomInt(min, max, cb) {
  if (max === undefined || typeof max === 'function') { cb = max; max = min; min = 0; }
  if (!$Number.isSafeInteger(min) || !$Number.isSafeInteger(max) || max <= min) throw new $RangeError('The value of "max" is out of range. It must be greater than the value of "min"');
  const range = max - min;
  const b = host('random', 6);
  const r = ((b[0] * 256 + b[1]) * 256 + b[2]) * 16777216 + ((b[3] * 256 + b[4]) * 256 + b[5]);
  const v = min + $Math.floor((r / 281474976710656) * range);
  if (typeof cb === 'function') { $Promise.resolve().then(function () { cb(null, v); }); return undefined; }
  return v;
}
const getCryptoModule = once(function () { return {
  createHash: function (alg) { return new Hash(alg, null); },
  createHmac: function (alg, key) { return new Hash(alg, keyBytes(key)); },
  randomBytes: randomBytes,
  pseudoRandomBytes: randomBytes,
  randomUUID: function () { return host('uuid'); },
  randomInt: randomInt,
  getRandomValues: getRandomValues,
  timingSafeEqual: timingSafeEqual,
  getHashes: function () { return opts.hashes.slice(); },
  webcrypto: { getRandomValues: getRandomValues, randomUUID: function () { return host('uuid'); } },
}; });

/* ------------------------------------------------------------------ outbound calls (fetch, svc) */
const pending = new $Map();
function startCall(kind, payload, body) {
  const id = host('call', kind, payload, body === undefined ? null : body);
  const p = new $Promise(function (resolve) { pending.set(id, resolve); });
  return { id: id, promise: p };
}
function settle(id, ok, json, bytes) {
  const resolve = pending.get(id);
  if (resolve === undefined) return 'gone';
  pending.delete(id);
  resolve([ok === true, json, bytes]);
  return 'ok';
}

/* ------------------------------------------------------------------ Headers / Request / Response / fetch */
const TOKEN_RE = /^[!#$%&'*+\-.^_\x60|~0-9A-Za-z]+$/;
function headerName(n) {
  const s = $String(n);
  if (!TOKEN_RE.test(s)) throw new $TypeError(s + ' is not a legal HTTP header name');
  return s.toLowerCase();
}
function headerValue(v) {
  const s = $String(v).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (/[\0\r\n]/.test(s)) throw new $TypeError(s + ' is not a legal HTTP header value');
  return s;
}
const getFetchKit = once(function () {
class Headers {
  constructor(init) {
    this._m = new $Map();
    if (init === undefined || init === null) return;
    if (init instanceof Headers) { for (const e of init._m) this._m.set(e[0], e[1].slice()); return; }
    if (typeof init !== 'object') throw new $TypeError('Provided headers are not an object or iterable');
    if (typeof init[ITER] === 'function') {
      for (const pair of init) {
        const p = $Array.from(pair);
        if (p.length !== 2) throw new $TypeError('Each header pair must be a name/value tuple');
        this.append(p[0], p[1]);
      }
      return;
    }
    for (const k of keysOf(init)) {
      const v = init[k];
      if (isArray(v)) for (const x of v) this.append(k, x);
      else this.append(k, v);
    }
  }
  append(n, v) { const k = headerName(n); const val = headerValue(v); const l = this._m.get(k); if (l) l.push(val); else this._m.set(k, [val]); }
  set(n, v) { this._m.set(headerName(n), [headerValue(v)]); }
  get(n) { const l = this._m.get(headerName(n)); return l === undefined ? null : l.join(', '); }
  has(n) { return this._m.has(headerName(n)); }
  delete(n) { this._m.delete(headerName(n)); }
  forEach(cb, thisArg) { for (const e of this.entries()) cb.call(thisArg, e[1], e[0], this); }
  keys() { return this._sorted().map(function (e) { return e[0]; })[ITER](); }
  values() { return this._sorted().map(function (e) { return e[1]; })[ITER](); }
  entries() { return this._sorted()[ITER](); }
  [ITER]() { return this.entries(); }
  raw() { const o = {}; for (const e of this._m) o[e[0]] = e[1].slice(); return o; }
  _sorted() { return $Array.from(this._m.keys()).sort().map((k) => [k, this._m.get(k).join(', ')]); }
  _pairs() { const out = []; for (const e of this._m) for (const v of e[1]) out.push([e[0], v]); return out; }
  get [TO_STRING_TAG]() { return 'Headers'; }
}
class FetchError extends $Error {
  constructor(message, type, systemError) {
    super(message);
    defineProperty(this, 'name', { value: 'FetchError', writable: true, configurable: true });
    this.type = type;
    if (systemError && systemError.code) { this.code = this.errno = systemError.code; }
  }
}
class AbortError extends $Error {
  constructor(message) {
    super(message === undefined ? 'The operation was aborted' : message);
    defineProperty(this, 'name', { value: 'AbortError', writable: true, configurable: true });
    this.type = 'aborted';
  }
}
function bodyBytes(body, headers) {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') { if (headers && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8'); return utf8Encode(body); }
  if (URLSearchParamsClass !== null && body instanceof URLSearchParamsClass) {
    if (headers && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return utf8Encode(body.toString());
  }
  const b = asBytes(body);
  if (b !== null) { const c = new $Uint8Array(b.length); c.set(b); return c; }
  if (headers && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  return utf8Encode($String(body));
}
class Body {
  constructor(bytes) { this._bytes = bytes === null ? new $Uint8Array(0) : bytes; this._used = false; }
  get bodyUsed() { return this._used; }
  get body() { return null; }
  _take() {
    if (this._used) return $Promise.reject(new $TypeError('body used already for: ' + (this.url || '')));
    this._used = true;
    return $Promise.resolve(this._bytes);
  }
  text() { return this._take().then(function (b) { return utf8Decode(b, 0, b.length, false); }); }
  json() {
    const url = this.url;
    return this.text().then(function (t) {
      try { return jsonParse(t); } catch (e) { throw new FetchError('invalid json response body at ' + url + ' reason: ' + e.message, 'invalid-json'); }
    });
  }
  arrayBuffer() { return this._take().then(function (b) { return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); }); }
  buffer() { return this._take().then(function (b) { return fromBytes(b, true); }); }
  textConverted() { return this.text(); }
}
class Request extends Body {
  constructor(input, init) {
    init = init || {};
    const base = input instanceof Request ? input : null;
    const method = $String(init.method !== undefined ? init.method : base ? base.method : 'GET').toUpperCase();
    const headers = new Headers(init.headers !== undefined ? init.headers : base ? base.headers : undefined);
    const body = init.body !== undefined ? bodyBytes(init.body, headers) : base ? base._bytes : null;
    if (body !== null && body.length > 0 && (method === 'GET' || method === 'HEAD')) throw new $TypeError('Request with GET/HEAD method cannot have body');
    super(body);
    this.url = base ? base.url : new (getUrlClasses().URL)($String(input)).href;
    this.method = method;
    this.headers = headers;
    this.redirect = $String(init.redirect || (base ? base.redirect : 'follow'));
    this.signal = init.signal || (base ? base.signal : null);
    this.timeout = $Number(init.timeout || (base ? base.timeout : 0)) || 0;
    this.size = $Number(init.size || (base ? base.size : 0)) || 0;
  }
  clone() { return new Request(this); }
  get [TO_STRING_TAG]() { return 'Request'; }
}
class Response extends Body {
  constructor(body, init) {
    init = init || {};
    const headers = new Headers(init.headers);
    super(bodyBytes(body, headers));
    this.status = init.status === undefined ? 200 : $Number(init.status);
    this.statusText = init.statusText === undefined ? '' : $String(init.statusText);
    this.headers = headers;
    this.url = init.url === undefined ? '' : $String(init.url);
    this.redirected = !!init.redirected;
    this.type = 'default';
  }
  get ok() { return this.status >= 200 && this.status < 300; }
  clone() {
    if (this._used) throw new $Error('cannot clone body after it is used');
    const r = new Response(null, { status: this.status, statusText: this.statusText, headers: this.headers, url: this.url, redirected: this.redirected });
    r._bytes = this._bytes;
    return r;
  }
  static json(data, init) {
    const h = new Headers(init && init.headers);
    if (!h.has('content-type')) h.set('content-type', 'application/json');
    return new Response(jsonStringify(data), { status: init && init.status, statusText: init && init.statusText, headers: h });
  }
  static error() { const r = new Response(null, { status: 0 }); r.type = 'error'; return r; }
  get [TO_STRING_TAG]() { return 'Response'; }
}
class AbortSignal {
  constructor() { this.aborted = false; this.reason = undefined; this.onabort = null; this._listeners = []; }
  addEventListener(type, fn) { if (type === 'abort' && typeof fn === 'function') this._listeners.push(fn); }
  removeEventListener(type, fn) { this._listeners = this._listeners.filter(function (x) { return x !== fn; }); }
  throwIfAborted() { if (this.aborted) throw this.reason; }
  _abort(reason) {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? domException('This operation was aborted', 'AbortError') : reason;
    const ev = { type: 'abort', target: this };
    if (typeof this.onabort === 'function') { try { this.onabort(ev); } catch (e) { /* ignore */ } }
    for (const fn of this._listeners.slice()) { try { fn.call(this, ev); } catch (e) { /* ignore */ } }
  }
  static abort(reason) { const s = new AbortSignal(); s._abort(reason); return s; }
  static timeout(ms) { const s = new AbortSignal(); setTimeout(function () { s._abort(domException('The operation was aborted due to timeout', 'TimeoutError')); }, ms); return s; }
  get [TO_STRING_TAG]() { return 'AbortSignal'; }
}
class AbortController {
  constructor() { this.signal = new AbortSignal(); }
  abort(reason) { this.signal._abort(reason); }
}
return {
  Headers: Headers, FetchError: FetchError, AbortError: AbortError, Request: Request, Response: Response,
  AbortSignal: AbortSignal, AbortController: AbortController,
};
});
function fetch(input, init) {
  const k = getFetchKit();
  const Request = k.Request, Response = k.Response, FetchError = k.FetchError, AbortError = k.AbortError;
  return new $Promise(function (resolve, reject) {
    const req = new Request(input, init);
    if (req.signal && req.signal.aborted) { reject(new AbortError()); return; }
    const meta = { url: req.url, method: req.method, headers: req.headers._pairs(), redirect: req.redirect, timeout: req.timeout, size: req.size };
    const call = startCall('fetch', jsonStringify(meta), req._bytes.length ? req._bytes : undefined);
    let done = false;
    if (req.signal && typeof req.signal.addEventListener === 'function') {
      req.signal.addEventListener('abort', function () {
        if (done) return;
        done = true;
        pending.delete(call.id);
        try { host('cancel', call.id); } catch (e) { /* ignore */ }
        reject(new AbortError());
      });
    }
    call.promise.then(function (r) {
      if (done) return;
      done = true;
      const info = jsonParse(r[1]);
      if (!r[0]) { reject(new FetchError(info.message, info.type || 'system', { code: info.code })); return; }
      const bytes = r[2] instanceof $Uint8Array ? r[2] : new $Uint8Array(0);
      const res = new Response(null, { status: info.status, statusText: info.statusText, headers: info.headers, url: info.url, redirected: info.redirected });
      res._bytes = bytes;
      resolve(res);
    });
  });
}
const getFetch = once(function () {
  const k = getFetchKit();
  fetch.default = fetch;
  fetch.Headers = k.Headers;
  fetch.Request = k.Request;
  fetch.Response = k.Response;
  fetch.FetchError = k.FetchError;
  fetch.AbortError = k.AbortError;
  fetch.isRedirect = function (code) { return code === 301 || code === 302 || code === 303 || code === 307 || code === 308; };
  return fetch;
});

/* ------------------------------------------------------------------ svc */
function svcCall(method, args) {
  return new $Promise(function (resolve, reject) {
    const call = startCall('svc', jsonStringify({ method: method, args: args }));
    call.promise.then(function (r) {
      if (r[0]) { resolve(r[1] === '' || r[1] === undefined ? undefined : jsonParse(r[1])); return; }
      const info = jsonParse(r[1]);
      const body = info.body;
      const title = body && typeof body === 'object' && typeof body.title === 'string' ? body.title : 'Request failed with status ' + info.status;
      const e = new $Error(title);
      defineProperty(e, 'name', { value: 'SvcError', writable: true, configurable: true });
      e.status = info.status;
      e.data = body;
      reject(e);
    });
  });
}
function makeSvc() {
  return freeze({
    tokens: freeze({
      create: function (body) { return svcCall('tokens.create', [body]); },
      retrieve: function (id) { return svcCall('tokens.retrieve', [id]); },
      update: function (id, patch) { return svcCall('tokens.update', [id, patch]); },
      delete: function (id) { return svcCall('tokens.delete', [id]); },
      list: function (query) { return svcCall('tokens.list', [query === undefined ? {} : query]); },
      search: function (body) { return svcCall('tokens.search', [body]); },
    }),
    tokenize: function (body) { return svcCall('tokenize', [body]); },
    detokenize: function (body) { return svcCall('detokenize', [body]); },
  });
}

/* ------------------------------------------------------------------ runtime errors (@coffer/reactor-runtime) */
function stringifyItem(x) {
  if (typeof x === 'string') return x;
  try { const s = jsonStringify(x); return s === undefined ? $String(x) : s; } catch (e) { return $String(x); }
}
function normalizeErrors(v) {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return { error: [v] };
  if (isArray(v)) return { error: v.map(stringifyItem) };
  if (typeof v === 'object') {
    const out = {};
    for (const k of keysOf(v)) { const x = v[k]; out[k] = isArray(x) ? x.map(stringifyItem) : [stringifyItem(x)]; }
    return out;
  }
  return { error: [stringifyItem(v)] };
}
const ERROR_CLASSES = [];
let CustomHttpResponseErrorClass = null;
const getRuntimeModule = once(function () {
class ReactorError extends $Error {
  constructor(status, title, errors) {
    super(typeof errors === 'string' ? errors : title);
    this.status = status;
    this.title = title;
    this.errors = normalizeErrors(errors);
  }
}
function defineErrorClass(name, status, title) {
  const C = {
    [name]: class extends ReactorError {
      constructor(errors) {
        super(status, title, errors);
        defineProperty(this, 'name', { value: name, writable: true, configurable: true });
      }
    },
  }[name];
  ERROR_CLASSES.push([name, C]);
  return C;
}
const BadRequestError = defineErrorClass('BadRequestError', 400, 'Bad Request');
const InvalidReactorConfigurationError = defineErrorClass('InvalidReactorConfigurationError', 400, 'Invalid Reactor Configuration');
const AuthenticationError = defineErrorClass('AuthenticationError', 401, 'Authentication Failed');
const InvalidPaymentMethodError = defineErrorClass('InvalidPaymentMethodError', 402, 'Invalid Payment Method');
const AuthorizationError = defineErrorClass('AuthorizationError', 403, 'Forbidden');
const RateLimitError = defineErrorClass('RateLimitError', 429, 'Rate Limit Exceeded');
const ReactorRuntimeError = defineErrorClass('ReactorRuntimeError', 500, 'Reactor Runtime Error');
const ServiceUnavailableError = defineErrorClass('ServiceUnavailableError', 503, 'Service Unavailable');
class CustomHttpResponseError extends $Error {
  constructor(response) {
    super('Custom HTTP response');
    defineProperty(this, 'name', { value: 'CustomHttpResponseError', writable: true, configurable: true });
    const r = response !== null && typeof response === 'object' ? response : {};
    this.status = r.status;
    this.headers = r.headers;
    this.body = r.body;
  }
}
const runtimeModule = {
  BadRequestError: BadRequestError,
  InvalidReactorConfigurationError: InvalidReactorConfigurationError,
  AuthenticationError: AuthenticationError,
  InvalidPaymentMethodError: InvalidPaymentMethodError,
  AuthorizationError: AuthorizationError,
  RateLimitError: RateLimitError,
  ReactorRuntimeError: ReactorRuntimeError,
  ServiceUnavailableError: ServiceUnavailableError,
  CustomHttpResponseError: CustomHttpResponseError,
};
CustomHttpResponseErrorClass = CustomHttpResponseError;
return freeze(runtimeModule);
});

/* ------------------------------------------------------------------ small helper modules */
function promisify(fn) {
  if (typeof fn !== 'function') throw new $TypeError('The "original" argument must be of type function');
  return function () {
    const args = $Array.prototype.slice.call(arguments);
    const self = this;
    return new $Promise(function (resolve, reject) {
      args.push(function (err, value) { if (err) reject(err); else resolve(value); });
      fn.apply(self, args);
    });
  };
}
const getUtilModule = once(function () { const codecs = getTextCodecs(); return {
  format: format,
  inspect: inspect,
  promisify: promisify,
  TextEncoder: codecs.TextEncoder,
  TextDecoder: codecs.TextDecoder,
  deprecate: function (fn) { return fn; },
  inherits: function (ctor, superCtor) { $Object.setPrototypeOf(ctor.prototype, superCtor.prototype); $Object.setPrototypeOf(ctor, superCtor); },
  isDeepStrictEqual: function (a, b) { try { return jsonStringify(a) === jsonStringify(b); } catch (e) { return false; } },
  types: { isDate: function (x) { return x instanceof $Date; }, isRegExp: function (x) { return x instanceof $RegExp; }, isPromise: function (x) { return x instanceof $Promise; }, isUint8Array: function (x) { return x instanceof $Uint8Array; } },
}; });
const getQuerystringModule = once(function () { const querystringModule = {
  parse: function (s, sep, eq) {
    const out = create(null);
    const list = sep === undefined && eq === undefined ? parseQuery($String(s === undefined ? '' : s)) : parseQuery($String(s).split(sep || '&').join('&').split(eq || '=').join('='));
    for (const p of list) { if (hasOwn(out, p[0])) { const v = out[p[0]]; out[p[0]] = isArray(v) ? v.concat([p[1]]) : [v, p[1]]; } else out[p[0]] = p[1]; }
    return out;
  },
  stringify: function (obj) {
    if (obj === null || typeof obj !== 'object') return '';
    const parts = [];
    const enc = function (v) { return encodeURIComponent(typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? $String(v) : ''); };
    for (const k of keysOf(obj)) { const v = obj[k]; if (isArray(v)) for (const x of v) parts.push(enc(k) + '=' + enc(x)); else parts.push(enc(k) + '=' + enc(v)); }
    return parts.join('&');
  },
  escape: function (s) { return encodeURIComponent($String(s)); },
  unescape: function (s) { try { return decodeURIComponent($String(s)); } catch (e) { return $String(s); } },
};
querystringModule.decode = querystringModule.parse;
querystringModule.encode = querystringModule.stringify;
return querystringModule;
});
const getTimersModule = once(function () { return { setTimeout: setTimeout, clearTimeout: clearAnyTimer, setInterval: setInterval, clearInterval: clearAnyTimer, setImmediate: setImmediate, clearImmediate: clearAnyTimer }; });
const getTimersPromisesModule = once(function () { return {
  setTimeout: function (ms, value) { return new $Promise(function (resolve) { setTimeout(resolve, ms, value); }); },
  setImmediate: function (value) { return new $Promise(function (resolve) { setImmediate(resolve, value); }); },
}; });
const MODULES = create(null);
MODULES['crypto'] = getCryptoModule;
MODULES['node-fetch'] = getFetch;
MODULES['@coffer/reactor-runtime'] = getRuntimeModule;
MODULES['@basis-theory/basis-theory-reactor-formulas-sdk-js'] = getRuntimeModule;
MODULES['buffer'] = once(function () { return { Buffer: getBuffer(), atob: atob, btoa: btoa, constants: { MAX_LENGTH: 0x7fffffff, MAX_STRING_LENGTH: 536870888 }, kMaxLength: 0x7fffffff }; });
MODULES['url'] = getUrlClasses;
MODULES['util'] = getUtilModule;
MODULES['querystring'] = getQuerystringModule;
MODULES['timers'] = getTimersModule;
MODULES['timers/promises'] = getTimersPromisesModule;
const NODE_PREFIXED = ['crypto', 'buffer', 'url', 'util', 'querystring', 'timers', 'timers/promises'];
function require(name) {
  const s = $String(name);
  let key = s;
  if (s.slice(0, 5) === 'node:' && NODE_PREFIXED.indexOf(s.slice(5)) >= 0) key = s.slice(5);
  const factory = MODULES[key];
  if (factory === undefined) {
    const e = new $Error("Cannot find module '" + s + "'");
    e.code = 'MODULE_NOT_FOUND';
    throw e;
  }
  return factory();
}
require.resolve = function (name) { require(name); return $String(name); };
require.cache = create(null);

/* ------------------------------------------------------------------ inert WeakRef / FinalizationRegistry */
const keyFor = $Symbol.keyFor;
function canBeHeldWeakly(v) {
  return (typeof v === 'object' && v !== null) || typeof v === 'function' || (typeof v === 'symbol' && keyFor(v) === undefined);
}
class WeakRef {
  #target;
  constructor(target) {
    if (!canBeHeldWeakly(target)) throw new $TypeError('WeakRef: invalid target');
    this.#target = target;
  }
  deref() { return this.#target; }
}
class FinalizationRegistry {
  #tokens = new $WeakMap();
  constructor(cleanup) {
    if (typeof cleanup !== 'function') throw new $TypeError('FinalizationRegistry: cleanup must be callable');
  }
  register(target, heldValue, unregisterToken) {
    if (!canBeHeldWeakly(target)) throw new $TypeError('FinalizationRegistry.prototype.register: invalid target');
    if (target === heldValue) throw new $TypeError('FinalizationRegistry.prototype.register: target and holdings must not be same');
    if (unregisterToken !== undefined) {
      if (!canBeHeldWeakly(unregisterToken)) throw new $TypeError('FinalizationRegistry.prototype.register: invalid unregister token');
      this.#tokens.set(unregisterToken, true);
    }
    return undefined;
  }
  unregister(unregisterToken) {
    if (!canBeHeldWeakly(unregisterToken)) throw new $TypeError('Invalid unregisterToken');
    const had = this.#tokens.has(unregisterToken);
    this.#tokens.delete(unregisterToken);
    return had;
  }
}
defineProperty(WeakRef.prototype, TO_STRING_TAG, { value: 'WeakRef', configurable: true });
defineProperty(FinalizationRegistry.prototype, TO_STRING_TAG, { value: 'FinalizationRegistry', configurable: true });

/* ------------------------------------------------------------------ globals */
const getPerformance = once(function () {
  const performance = { timeOrigin: $Date.now(), now: function () { return $Date.now() - performance.timeOrigin; } };
  return performance;
});
function lazyGlobal(name, factory) {
  defineProperty(G, name, {
    configurable: true,
    enumerable: false,
    get: function () { const v = factory(); defineProperty(G, name, { value: v, writable: true, configurable: true, enumerable: false }); return v; },
    set: function (v) { defineProperty(G, name, { value: v, writable: true, configurable: true, enumerable: false }); },
  });
}
function plainGlobal(name, value) { defineProperty(G, name, { value: value, writable: true, configurable: true, enumerable: false }); }
plainGlobal('global', G);
plainGlobal('atob', atob);
plainGlobal('btoa', btoa);
plainGlobal('setTimeout', setTimeout);
plainGlobal('clearTimeout', clearAnyTimer);
plainGlobal('setInterval', setInterval);
plainGlobal('clearInterval', clearAnyTimer);
plainGlobal('setImmediate', setImmediate);
plainGlobal('clearImmediate', clearAnyTimer);
plainGlobal('queueMicrotask', queueMicrotask);
plainGlobal('WeakRef', WeakRef);
plainGlobal('FinalizationRegistry', FinalizationRegistry);
lazyGlobal('Buffer', getBuffer);
lazyGlobal('URL', function () { return getUrlClasses().URL; });
lazyGlobal('URLSearchParams', function () { return getUrlClasses().URLSearchParams; });
lazyGlobal('TextEncoder', function () { return getTextCodecs().TextEncoder; });
lazyGlobal('TextDecoder', function () { return getTextCodecs().TextDecoder; });
lazyGlobal('console', getConsole);
lazyGlobal('fetch', getFetch);
lazyGlobal('Headers', function () { return getFetchKit().Headers; });
lazyGlobal('Request', function () { return getFetchKit().Request; });
lazyGlobal('Response', function () { return getFetchKit().Response; });
lazyGlobal('AbortController', function () { return getFetchKit().AbortController; });
lazyGlobal('AbortSignal', function () { return getFetchKit().AbortSignal; });
lazyGlobal('DOMException', getDOMException);
lazyGlobal('performance', getPerformance);

/* ------------------------------------------------------------------ invocation */
function describe(e) {
  try {
    if (e instanceof $Error || (e !== null && typeof e === 'object' && typeof e.message === 'string')) return $String(e.name || 'Error') + ': ' + $String(e.message);
    return 'Thrown value: ' + inspect(e);
  } catch (x) { return 'Error'; }
}
function logError(what, e) {
  if (!opts.capture) return;
  let text;
  try { text = e instanceof $Error && e.stack ? $String(e.stack) : describe(e); } catch (x) { text = 'Error'; }
  emit('error', what + ': ' + text);
}
function serializeResult(r) {
  if (r === null || typeof r !== 'object' || isArray(r)) return 'E' + jsonStringify({ kind: 'bad-result', type: r === null ? 'null' : isArray(r) ? 'array' : typeof r });
  let s;
  try {
    s = jsonStringify({ raw: r.raw, tokenize: r.tokenize });
  } catch (e) {
    logError('The result could not be serialized', e);
    return 'E' + jsonStringify({ kind: 'bad-result', type: 'unserializable' });
  }
  if (typeof s !== 'string') return 'E' + jsonStringify({ kind: 'bad-result', type: 'unserializable' });
  if (s.length > opts.maxResultChars) return 'E' + jsonStringify({ kind: 'too-large' });
  return 'R' + s;
}
function serializeError(e) {
  try {
    if (CustomHttpResponseErrorClass !== null && e instanceof CustomHttpResponseErrorClass) {
      const s = jsonStringify({ kind: 'custom', status: e.status, headers: e.headers, body: e.body });
      if (s.length > opts.maxResultChars) return 'E' + jsonStringify({ kind: 'too-large' });
      return 'E' + s;
    }
    for (const pair of ERROR_CLASSES) {
      if (e instanceof pair[1]) {
        const s = jsonStringify({ kind: 'class', name: pair[0], errors: e.errors });
        if (s.length > opts.maxResultChars) return 'E' + jsonStringify({ kind: 'class', name: pair[0] });
        return 'E' + s;
      }
    }
  } catch (x) { /* fall through */ }
  logError('Uncaught error', e);
  return 'E{"kind":"error"}';
}
function invoke(wrapper, reqJson, sync, log, optsJson) {
  hostSync = typeof sync === 'function' ? sync : null;
  hostLog = typeof log === 'function' ? log : null;
  opts = jsonParse(optsJson);
  const req = jsonParse(reqJson);
  const module = { id: '.', path: '/', filename: '/formula.js', loaded: false, children: [], paths: [], exports: {} };
  module.require = require;
  try {
    if (typeof wrapper !== 'function') throw new $TypeError('The formula did not compile to a module');
    wrapper.call(module.exports, module.exports, require, module, '/formula.js', '/');
    module.loaded = true;
  } catch (e) {
    logError('The formula failed to load', e);
    return $Promise.resolve('E' + jsonStringify({ kind: 'load', message: describe(e) }));
  }
  const fn = module.exports;
  if (typeof fn !== 'function') {
    return $Promise.resolve('E' + jsonStringify({ kind: 'load', message: 'The formula module must export a function: module.exports = async function (req) { ... }' }));
  }
  const request = { args: req.args, configuration: req.configuration, svc: opts.svc ? makeSvc() : null };
  let p;
  try { p = fn(request); } catch (e) { return $Promise.resolve(serializeError(e)); }
  return $Promise.resolve(p).then(serializeResult, serializeError);
}
return function entry(op, a, b, c, d, e) {
  if (op === 'invoke') return invoke(a, b, c, d, e);
  if (op === 'timer') return fireTimer(a);
  if (op === 'settle') return settle(a, b, c, d);
  return 'unknown';
};
})()`;
