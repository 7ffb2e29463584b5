/**
 * The well-kept libraries the runtime is built on: `buffer@6` (Node's Buffer API over Uint8Array), `util@0.12`
 * (Node's util ported to browsers: its `inspect`, `inherits`, `promisify`) and `querystring-es3` (Node's
 * querystring). tools/bundle-runtime.mjs bundles them (vendor-entry.ts) into the body of one function,
 * `__cofferVendor`, declared ahead of the runtime: every invocation runs in a fresh context that evaluates the
 * runtime first, so their code is compiled and evaluated only in the contexts whose formula touches one of them.
 *
 * What each exposes inside the isolate was checked: plain JavaScript over the isolate's own built-ins, no host
 * object, no global left behind; `util` names `process` (NODE_DEBUG, deprecations), which the bundler binds to a
 * stand-in local to the bundle (process-shim.ts).
 */
import type { Buffer } from 'buffer';
import type * as Vendor from './vendor-entry';
import { once } from './host';

declare const __cofferVendor: () => typeof Vendor;

/** The package's exports (its declarations cover only the class). */
interface BufferModule {
  Buffer: typeof Buffer;
  SlowBuffer: (size: number) => Buffer;
  kMaxLength: number;
  INSPECT_MAX_BYTES: number;
}

const vendor = once(() => __cofferVendor());

export const loadBufferModule = once(() => vendor().buffer as unknown as BufferModule);
export const loadUtilModule = once(() => vendor().util);
export const loadQuerystringModule = once(() => vendor().querystring);
