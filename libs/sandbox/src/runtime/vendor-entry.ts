/**
 * The well-kept libraries the runtime uses, bundled apart (tools/bundle-runtime.mjs) into one function that the
 * runtime calls on first use - see bundled.ts.
 */
export * as buffer from 'buffer';
export * as util from 'util';
export * as querystring from 'querystring-es3';
