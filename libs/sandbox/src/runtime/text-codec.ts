/** TextEncoder / TextDecoder (utf-8, utf-16le, latin1) and atob / btoa. */
import { getBuffer } from './buffer';
import { domException } from './dom-exception';
import { codedError, once } from './host';
import { asBytes, latin1Decode, utf16leDecode, utf8Decode, utf8Encode } from './utf8';

export const getTextCodecs = once(() => {
  class TextEncoder {
    get encoding(): string {
      return 'utf-8';
    }
    encode(input?: unknown): Uint8Array {
      return utf8Encode(input === undefined ? '' : input);
    }
    encodeInto(src: unknown, dest: Uint8Array): { read: number; written: number } {
      const bytes = utf8Encode(src);
      let n = Math.min(bytes.length, dest.length);
      // never split a character
      while (n > 0 && n < bytes.length && (bytes[n] & 0xc0) === 0x80) n--;
      dest.set(bytes.subarray(0, n));
      return { read: utf8Decode(bytes, 0, n, false).length, written: n };
    }
  }
  const labels: Record<string, string> = Object.create(null);
  for (const l of ['utf-8', 'utf8', 'unicode-1-1-utf-8']) labels[l] = 'utf-8';
  for (const l of ['utf-16le', 'utf-16']) labels[l] = 'utf-16le';
  for (const l of ['latin1', 'iso-8859-1', 'windows-1252', 'ascii', 'us-ascii']) labels[l] = 'windows-1252';
  class TextDecoder {
    readonly #enc: string;
    readonly #fatal: boolean;
    readonly #ignoreBOM: boolean;
    constructor(label?: unknown, options?: { fatal?: boolean; ignoreBOM?: boolean }) {
      const enc =
        labels[
          String(label === undefined ? 'utf-8' : label)
            .trim()
            .toLowerCase()
        ];
      if (enc === undefined) throw codedError(new RangeError('The "' + String(label) + '" encoding is not supported'), 'ERR_ENCODING_NOT_SUPPORTED');
      this.#enc = enc;
      this.#fatal = Boolean(options && options.fatal);
      this.#ignoreBOM = Boolean(options && options.ignoreBOM);
    }
    get encoding(): string {
      return this.#enc;
    }
    get fatal(): boolean {
      return this.#fatal;
    }
    get ignoreBOM(): boolean {
      return this.#ignoreBOM;
    }
    decode(input?: unknown): string {
      if (input === undefined) return '';
      const b = asBytes(input);
      if (b === null) throw new TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView.');
      if (this.#enc === 'utf-8') {
        const start = !this.#ignoreBOM && b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
        return utf8Decode(b, start, b.length, this.#fatal);
      }
      if (this.#enc === 'utf-16le') {
        const start = !this.#ignoreBOM && b.length >= 2 && b[0] === 0xff && b[1] === 0xfe ? 2 : 0;
        return utf16leDecode(b, start, b.length);
      }
      return latin1Decode(b, 0, b.length);
    }
  }
  return { TextEncoder, TextDecoder };
});

export function atob(...args: unknown[]): string {
  if (args.length === 0) throw new TypeError('The "data" argument must be specified');
  let s = String(args[0]).replace(/[\t\n\f\r ]/g, '');
  if (s.length % 4 === 0) s = s.replace(/==?$/, '');
  if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw domException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  return getBuffer().from(s, 'base64').toString('latin1');
}

export function btoa(...args: unknown[]): string {
  if (args.length === 0) throw new TypeError('The "data" argument must be specified');
  const s = String(args[0]);
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 255) throw domException('Invalid character', 'InvalidCharacterError');
  return getBuffer().from(s, 'latin1').toString('base64');
}
