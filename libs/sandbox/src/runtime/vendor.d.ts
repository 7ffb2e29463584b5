/**
 * The parts of the bundled CommonJS libraries the runtime uses (neither ships type declarations). The runtime is
 * type-checked without Node's types (tsconfig.runtime.json), so these are the only declarations of these modules.
 */
declare module 'util' {
  export interface InspectOptions {
    depth?: number | null;
    showHidden?: boolean;
    colors?: boolean;
    customInspect?: boolean;
  }
  export function inspect(value: unknown, options?: InspectOptions): string;
  export function inherits(ctor: unknown, superCtor: unknown): void;
  export function promisify(fn: unknown): (...args: unknown[]) => Promise<unknown>;
  export function deprecate<T>(fn: T, message: string): T;
}

declare module 'querystring-es3' {
  export function parse(s: string, sep?: string, eq?: string, options?: { maxKeys?: number }): Record<string, string | string[]>;
  export function stringify(obj: unknown, sep?: string, eq?: string, name?: string): string;
}
