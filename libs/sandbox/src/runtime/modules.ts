/**
 * The formula's `require`: an allow-list of modules, each built on first use. Anything else throws
 * `Cannot find module 'x'` (code MODULE_NOT_FOUND), like Node.
 */
import { jsonStringify } from './primordials';
import { getBufferModule } from './buffer';
import { loadQuerystringModule, loadUtilModule } from './bundled';
import { getCryptoModule } from './crypto';
import { getFetch } from './fetch';
import { codedError, once } from './host';
import { format, inspect } from './inspect';
import { getRuntimeModule } from './reactor-runtime';
import { getTextCodecs } from './text-codec';
import { getTimersModule, getTimersPromisesModule } from './timers';
import { getUrlClasses } from './url';
import { atob, btoa } from './text-codec';

const getUtilModule = once(() => {
  const util = loadUtilModule();
  const { TextEncoder, TextDecoder } = getTextCodecs();
  return {
    format,
    inspect,
    promisify: util.promisify,
    deprecate: <T>(fn: T) => fn,
    inherits: util.inherits,
    // JSON equality: enough for the JSON data formulas handle, and no engine-specific structural walk
    isDeepStrictEqual: (a: unknown, b: unknown) => {
      try {
        return jsonStringify(a) === jsonStringify(b);
      } catch {
        return false;
      }
    },
    types: {
      isDate: (x: unknown) => x instanceof Date,
      isRegExp: (x: unknown) => x instanceof RegExp,
      isPromise: (x: unknown) => x instanceof Promise,
      isUint8Array: (x: unknown) => x instanceof Uint8Array,
    },
    TextEncoder,
    TextDecoder,
  };
});

/** Node returns an object without a prototype: no `__proto__` or `constructor` key can shadow anything. */
const getQuerystringModule = once(() => {
  const qs = loadQuerystringModule();
  const parse = (s?: unknown, sep?: unknown, eq?: unknown, options?: unknown) => {
    const parsed = qs.parse(
      s === undefined || s === null ? '' : String(s),
      sep === undefined ? undefined : String(sep),
      eq === undefined ? undefined : String(eq),
      options !== null && typeof options === 'object' ? (options as { maxKeys?: number }) : undefined,
    );
    const out: Record<string, string | string[]> = Object.create(null);
    for (const k of Object.keys(parsed)) out[k] = parsed[k];
    return out;
  };
  const stringify = (obj: unknown, sep?: string, eq?: string) => qs.stringify(obj, sep, eq);
  return {
    parse,
    decode: parse,
    stringify,
    encode: stringify,
    escape: (s: unknown) => encodeURIComponent(String(s)),
    unescape: (s: unknown) => {
      try {
        return decodeURIComponent(String(s));
      } catch {
        return String(s);
      }
    },
  };
});

const MODULES: Record<string, () => unknown> = Object.assign(Object.create(null) as Record<string, () => unknown>, {
  crypto: getCryptoModule,
  'node-fetch': getFetch,
  '@coffer/reactor-runtime': getRuntimeModule,
  '@basis-theory/basis-theory-reactor-formulas-sdk-js': getRuntimeModule,
  buffer: once(() => ({ ...getBufferModule(), atob, btoa })),
  url: getUrlClasses,
  util: getUtilModule,
  querystring: getQuerystringModule,
  timers: getTimersModule,
  'timers/promises': getTimersPromisesModule,
});

const NODE_PREFIXED = ['crypto', 'buffer', 'url', 'util', 'querystring', 'timers', 'timers/promises'];

export function formulaRequire(name: unknown): unknown {
  const s = String(name);
  const key = s.slice(0, 5) === 'node:' && NODE_PREFIXED.indexOf(s.slice(5)) >= 0 ? s.slice(5) : s;
  const factory = MODULES[key];
  if (factory === undefined) throw codedError(new Error("Cannot find module '" + s + "'"), 'MODULE_NOT_FOUND');
  return factory();
}
formulaRequire.resolve = (name: unknown): string => {
  formulaRequire(name);
  return String(name);
};
formulaRequire.cache = Object.create(null) as Record<string, unknown>;
Object.defineProperty(formulaRequire, 'name', { value: 'require' });
