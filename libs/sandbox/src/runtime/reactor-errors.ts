/**
 * The error classes formula code throws to choose its answer (`@coffer/reactor-runtime`, alias
 * `@basis-theory/basis-theory-reactor-formulas-sdk-js`): status and title per class, the constructor argument
 * normalized into `errors`; CustomHttpResponseError carries a whole response.
 */
import { jsonStringify } from './primordials';
import { once } from './host';

function stringifyItem(x: unknown): string {
  if (typeof x === 'string') return x;
  try {
    const s = jsonStringify(x);
    return s === undefined ? String(x) : s;
  } catch {
    return String(x);
  }
}

export function normalizeErrors(v: unknown): Record<string, string[]> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return { error: [v] };
  if (Array.isArray(v)) return { error: v.map(stringifyItem) };
  if (typeof v === 'object') {
    const out: Record<string, string[]> = {};
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      out[k] = Array.isArray(x) ? x.map(stringifyItem) : [stringifyItem(x)];
    }
    return out;
  }
  return { error: [stringifyItem(v)] };
}

const CLASSES = [
  ['BadRequestError', 400, 'Bad Request'],
  ['InvalidReactorConfigurationError', 400, 'Invalid Reactor Configuration'],
  ['AuthenticationError', 401, 'Authentication Failed'],
  ['InvalidPaymentMethodError', 402, 'Invalid Payment Method'],
  ['AuthorizationError', 403, 'Forbidden'],
  ['RateLimitError', 429, 'Rate Limit Exceeded'],
  ['ReactorRuntimeError', 500, 'Reactor Runtime Error'],
  ['ServiceUnavailableError', 503, 'Service Unavailable'],
] as const;

export type ReactorErrorName = (typeof CLASSES)[number][0];

export class ReactorError extends Error {
  readonly errors: Record<string, string[]> | undefined;
  constructor(
    readonly status: number,
    readonly title: string,
    errors: unknown,
  ) {
    super(typeof errors === 'string' ? errors : title);
    this.errors = normalizeErrors(errors);
  }
}

export class CustomHttpResponseError extends Error {
  readonly status: unknown;
  readonly headers: unknown;
  readonly body: unknown;
  constructor(response: unknown) {
    super('Custom HTTP response');
    Object.defineProperty(this, 'name', { value: 'CustomHttpResponseError', writable: true, configurable: true });
    const r = (response !== null && typeof response === 'object' ? response : {}) as Record<string, unknown>;
    this.status = r['status'];
    this.headers = r['headers'];
    this.body = r['body'];
  }
}

/** The classes by name, built on first use (most formulas never touch them). */
export const getErrorClasses = once(() => {
  const out = [] as Array<[ReactorErrorName, typeof ReactorError]>;
  for (const [name, status, title] of CLASSES) {
    const C = class extends ReactorError {
      constructor(errors?: unknown) {
        super(status, title, errors);
        Object.defineProperty(this, 'name', { value: name, writable: true, configurable: true });
      }
    };
    Object.defineProperty(C, 'name', { value: name });
    out.push([name, C as unknown as typeof ReactorError]);
  }
  return out;
});
