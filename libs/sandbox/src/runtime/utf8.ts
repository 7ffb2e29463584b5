/**
 * UTF-8 and the single-byte/UTF-16 code units, for TextEncoder/TextDecoder (which V8 alone does not have). Buffer's
 * encodings come from the `buffer` package; TextDecoder needs a decoder that can also fail on invalid input (`fatal`).
 */

const CHUNK = 8192;

export function codeUnitsToString(units: Uint16Array, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += CHUNK) s += String.fromCharCode(...units.subarray(i, Math.min(n, i + CHUNK)));
  return s;
}

export function utf8Length(s: string): number {
  let len = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      len += 4;
      i++;
    } else len += 3;
  }
  return len;
}

/** Lone surrogates become U+FFFD, like the WHATWG encoder. */
export function utf8Encode(input: unknown): Uint8Array {
  const s = String(input);
  const n = s.length;
  const out = new Uint8Array(utf8Length(s));
  let p = 0;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) out[p++] = c;
    else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 63);
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[p++] = 0xf0 | (cp >> 18);
      out[p++] = 0x80 | ((cp >> 12) & 63);
      out[p++] = 0x80 | ((cp >> 6) & 63);
      out[p++] = 0x80 | (cp & 63);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 63);
      out[p++] = 0x80 | (c & 63);
    }
  }
  return out;
}

function invalidUtf8(): TypeError {
  return new TypeError('The encoded data was not valid for encoding utf-8');
}

/** WHATWG UTF-8 decode (maximal subparts become U+FFFD), or a TypeError when `fatal`. */
export function utf8Decode(b: Uint8Array, start: number, end: number, fatal: boolean): string {
  const units = new Uint16Array(Math.max(0, end - start));
  let n = 0;
  let i = start;
  while (i < end) {
    const c = b[i];
    if (c < 0x80) {
      units[n++] = c;
      i++;
      continue;
    }
    let need = 0;
    let cp = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      cp = c & 0x0f;
      if (c === 0xe0) lower = 0xa0;
      if (c === 0xed) upper = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      cp = c & 0x07;
      if (c === 0xf0) lower = 0x90;
      if (c === 0xf4) upper = 0x8f;
    } else {
      if (fatal) throw invalidUtf8();
      units[n++] = 0xfffd;
      i++;
      continue;
    }
    let j = i + 1;
    let k = 0;
    for (; k < need && j < end; k++, j++) {
      const cc = b[j];
      if (cc < lower || cc > upper) break;
      lower = 0x80;
      upper = 0xbf;
      cp = (cp << 6) | (cc & 0x3f);
    }
    i = j;
    if (k !== need) {
      if (fatal) throw invalidUtf8();
      units[n++] = 0xfffd;
      continue;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units[n++] = 0xd800 + (cp >> 10);
      units[n++] = 0xdc00 + (cp & 0x3ff);
    } else units[n++] = cp;
  }
  return codeUnitsToString(units, n);
}

export function latin1Decode(b: Uint8Array, start: number, end: number): string {
  const units = new Uint16Array(Math.max(0, end - start));
  for (let i = start; i < end; i++) units[i - start] = b[i];
  return codeUnitsToString(units, end - start);
}

export function utf16leDecode(b: Uint8Array, start: number, end: number): string {
  const n = (end - start) >> 1;
  const units = new Uint16Array(n);
  for (let i = 0; i < n; i++) units[i] = b[start + i * 2] | (b[start + i * 2 + 1] << 8);
  return codeUnitsToString(units, n);
}

/** The bytes of any ArrayBuffer or view (shared, not copied), or null. */
export function asBytes(v: unknown): Uint8Array | null {
  if (v instanceof Uint8Array) return v;
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return null;
}
