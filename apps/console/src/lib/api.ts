import { ApiError, toProblem } from './problem';

export const CSRF_COOKIE = 'coffer_console_csrf';
export const CSRF_HEADER = 'x-coffer-csrf';

/** The CSRF token the gateway set at sign-in (a readable cookie; the session cookie itself is HttpOnly). */
export function csrfToken(): string {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === CSRF_COOKIE) return rest.join('=');
  }
  return '';
}

let onUnauthorized: () => void = () => undefined;
/** Called when a call answers 401: the session ended (sign-out elsewhere, idle timeout, revoked key). */
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

/**
 * One call to the API of this origin with the console session (cookie plus CSRF header); problems become ApiError.
 * `asKey`: this one call is made with that API key instead (the gateway prefers the header to the session), e.g. a
 * private application's key for a reactor's test run; its 401 does not end the console session.
 */
export async function api<T>(method: string, path: string, body?: unknown, asKey?: string): Promise<T> {
  const headers: Record<string, string> = { [CSRF_HEADER]: csrfToken(), accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (asKey) headers['svc-api-key'] = asKey;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(toProblem(0, undefined));
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    if (res.status === 401 && path !== '/console/session' && !asKey) onUnauthorized();
    throw new ApiError(toProblem(res.status, json));
  }
  return json as T;
}

export interface Page<T> {
  pagination: { total_items?: number; page_number?: number; page_size: number; total_pages?: number; next?: string };
  data: T[];
}

export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
