import { withoutHopByHop } from '@coffer/egress';
import type { FailKind } from './protocol';
import type { SandboxCustomResponse, SandboxOutcome, SandboxProblem } from './types';

/** The runtime error classes formula code may throw (docs/reactors.md), by class name. */
export const REACTOR_ERRORS: Readonly<Record<string, { status: number; title: string }>> = Object.freeze({
  BadRequestError: { status: 400, title: 'Bad Request' },
  InvalidReactorConfigurationError: { status: 400, title: 'Invalid Reactor Configuration' },
  AuthenticationError: { status: 401, title: 'Authentication Failed' },
  InvalidPaymentMethodError: { status: 402, title: 'Invalid Payment Method' },
  AuthorizationError: { status: 403, title: 'Forbidden' },
  RateLimitError: { status: 429, title: 'Rate Limit Exceeded' },
  ReactorRuntimeError: { status: 500, title: 'Reactor Runtime Error' },
  ServiceUnavailableError: { status: 503, title: 'Service Unavailable' },
});

export const RUNTIME_ERROR_TITLE = 'Reactor Runtime Error';
export const LOAD_ERROR_TITLE = 'Reactor code could not be loaded';
export const TIMEOUT_TITLE = 'Reactor timed out';

const MAX_ERROR_KEYS = 100;
const MAX_ERROR_ITEMS = 100;
const MAX_ERROR_TEXT = 4096;

export function runtimeError(message?: string): SandboxProblem {
  return {
    status: 500,
    title: RUNTIME_ERROR_TITLE,
    detail: RUNTIME_ERROR_TITLE,
    ...(message ? { errors: { error: [message] } } : {}),
  };
}

export function timeoutProblem(timeoutMs: number): SandboxProblem {
  return { status: 504, title: TIMEOUT_TITLE, detail: `The reactor did not complete within ${timeoutMs} ms` };
}

export function unavailableProblem(detail: string): SandboxProblem {
  return { status: 503, title: 'Service Unavailable', detail };
}

/** Maps a worker-level failure (no isolate answer) to a problem. */
export function failureProblem(fail: FailKind, message: string | undefined, timeoutMs: number, maxResultBytes: number): SandboxProblem {
  switch (fail) {
    case 'timeout':
      return timeoutProblem(timeoutMs);
    case 'memory':
      return runtimeError('Reactor exceeded its memory limit');
    case 'load':
      return loadProblem(message);
    case 'too-large':
      return runtimeError(`Reactor result exceeds ${maxResultBytes} bytes`);
    case 'uncaught':
    case 'internal':
    default:
      return runtimeError();
  }
}

function loadProblem(message?: string): SandboxProblem {
  return {
    status: 422,
    title: LOAD_ERROR_TITLE,
    detail: LOAD_ERROR_TITLE,
    ...(message ? { errors: { error: [clip(message)] } } : {}),
  };
}

function clip(s: string): string {
  return s.length > MAX_ERROR_TEXT ? s.slice(0, MAX_ERROR_TEXT) + '…' : s;
}

/** JSON.parse that drops `__proto__` keys, so nothing the formula returns can re-prototype host objects later. */
export function parseUntrustedJson(text: string): unknown {
  if (!text.includes('__proto__')) return JSON.parse(text);
  return JSON.parse(text, (key, value) => (key === '__proto__' ? undefined : value));
}

function itemText(x: unknown): string {
  if (typeof x === 'string') return clip(x);
  try {
    const s = JSON.stringify(x);
    return clip(s === undefined ? String(x) : s);
  } catch {
    return clip(String(x));
  }
}

/** Validates (and re-normalizes) an `errors` map coming out of the isolate. */
export function sanitizeErrors(v: unknown): Record<string, string[]> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return { error: [clip(v)] };
  if (Array.isArray(v)) return { error: v.slice(0, MAX_ERROR_ITEMS).map(itemText) };
  if (typeof v !== 'object') return { error: [itemText(v)] };
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(v).slice(0, MAX_ERROR_KEYS)) {
    if (key === '__proto__') continue;
    const x = (v as Record<string, unknown>)[key];
    out[clip(key)] = Array.isArray(x) ? x.slice(0, MAX_ERROR_ITEMS).map(itemText) : [itemText(x)];
  }
  return out;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** the framing the gateway redoes for the answer it sends */
const FRAMING = new Set(['content-length']);

/**
 * A custom response's headers the caller may receive: well-formed names and values, at most 50, without the hop-by-hop
 * headers (and those their `Connection` names) that no hop Coffer relays may pass on (libs/egress, one list).
 */
function sanitizeHeaders(v: unknown): Record<string, string> | undefined {
  if (v === undefined || v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const wellFormed: [string, string][] = [];
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name)) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    const text = String(value);
    if (/[\0\r\n]/.test(text) || text.length > 8192) continue;
    wellFormed.push([name, text]);
  }
  return Object.fromEntries(withoutHopByHop(wellFormed, FRAMING).slice(0, 50));
}

/**
 * Turns the isolate's answer (`R<result json>` or `E<error json>`) into a {@link SandboxOutcome}. Everything is
 * re-validated here: the isolate's code is as untrusted as the formula.
 */
export function outcomeFromIsolate(out: string, maxResultBytes: number): SandboxOutcome {
  const kind = out[0];
  const json = out.slice(1);
  if (kind === 'R') {
    if (Buffer.byteLength(json) > maxResultBytes) {
      return { ok: false, problem: runtimeError(`Reactor result exceeds ${maxResultBytes} bytes`) };
    }
    let parsed: unknown;
    try {
      parsed = parseUntrustedJson(json);
    } catch {
      return { ok: false, problem: runtimeError() };
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, problem: runtimeError() };
    const r = parsed as { raw?: unknown; tokenize?: unknown };
    const result: { raw?: unknown; tokenize?: unknown } = {};
    if (r.raw !== undefined) result.raw = r.raw;
    if (r.tokenize !== undefined) result.tokenize = r.tokenize;
    return { ok: true, result };
  }
  let e: Record<string, unknown>;
  try {
    const parsed = parseUntrustedJson(json);
    if (parsed === null || typeof parsed !== 'object') throw new Error('bad');
    e = parsed as Record<string, unknown>;
  } catch {
    return { ok: false, problem: runtimeError() };
  }
  switch (e['kind']) {
    case 'class': {
      const def = typeof e['name'] === 'string' ? REACTOR_ERRORS[e['name']] : undefined;
      if (!def || !Object.prototype.hasOwnProperty.call(REACTOR_ERRORS, e['name'] as string)) return { ok: false, problem: runtimeError() };
      const errors = sanitizeErrors(e['errors']);
      return {
        ok: false,
        problem: { status: def.status, title: def.title, detail: def.title, ...(errors ? { errors } : {}) },
      };
    }
    case 'custom': {
      const status = e['status'];
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
        return { ok: false, problem: runtimeError('CustomHttpResponseError needs an integer status between 200 and 599') };
      }
      if (Buffer.byteLength(json) > maxResultBytes) {
        return { ok: false, problem: runtimeError(`Reactor result exceeds ${maxResultBytes} bytes`) };
      }
      const headers = sanitizeHeaders(e['headers']);
      const custom: SandboxCustomResponse = { status };
      if (headers) custom.headers = headers;
      if (e['body'] !== undefined) custom.body = e['body'];
      return { ok: false, problem: { status, title: 'Reactor Custom Response', detail: 'Reactor Custom Response' }, custom };
    }
    case 'load':
      return { ok: false, problem: loadProblem(typeof e['message'] === 'string' ? e['message'] : undefined) };
    case 'too-large':
      return { ok: false, problem: runtimeError(`Reactor result exceeds ${maxResultBytes} bytes`) };
    case 'bad-result':
      return {
        ok: false,
        problem: runtimeError(
          e['type'] === 'unserializable'
            ? 'Reactor result is not serializable as JSON'
            : 'Reactor must return an object with optional raw and tokenize properties',
        ),
      };
    default:
      return { ok: false, problem: runtimeError() };
  }
}
