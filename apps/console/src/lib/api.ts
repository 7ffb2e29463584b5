import type { components, paths } from '../generated/openapi';
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

/** The request and reply shapes of the API, generated from docs/openapi.json (`npm run openapi`). */
export type Schemas = components['schemas'];
/** One schema of the API reference by name: `Schema<'TokenView'>`. */
export type Schema<N extends keyof Schemas> = Schemas[N];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** The paths of the API reference that have an operation for `M` (written as documented: `/applications/{id}`). */
export type ApiPath<M extends Method> = { [P in keyof paths]: paths[P][Lowercase<M>] extends undefined ? never : P }[keyof paths];
type Operation<M extends Method, P extends ApiPath<M>> = NonNullable<paths[P][Lowercase<M>]>;
/** `O[K]`, or undefined when `O` has no `K` (an optional member's type includes undefined). */
type Member<O, K extends PropertyKey> = K extends keyof O ? O[K] : undefined;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<M extends Method, P extends ApiPath<M>> = Member<Operation<M, P>, 'responses'>;
/** What a success of `M P` answers: the JSON body of its 2xx replies (undefined for a 204); for a union of paths, each one's. */
export type ApiReply<M extends Method, P extends ApiPath<M>> = P extends unknown
  ? { [C in keyof Responses<M, P>]: C extends 204 ? undefined : C extends 200 | 201 | 202 ? JsonOf<Responses<M, P>[C]> : never }[keyof Responses<M, P>]
  : never;
type RequestBody<M extends Method, P extends ApiPath<M>> = Member<Operation<M, P>, 'requestBody'>;
type Json<M extends Method, P extends ApiPath<M>> = JsonOf<NonNullable<RequestBody<M, P>>>;
/** The JSON request body of `M P` (undefined when it takes none). */
export type ApiBody<M extends Method, P extends ApiPath<M>> = [Json<M, P>] extends [never] ? undefined : Json<M, P>;
/** The items of a documented list (`{ pagination, data }`) that `GET P` answers. */
export type ApiItem<P extends ApiPath<'GET'>> = ApiReply<'GET', P> extends { data: (infer T)[] } ? T : never;

type PathParams<M extends Method, P extends ApiPath<M>> = Member<Member<Operation<M, P>, 'parameters'>, 'path'>;
type ParamsOption<M extends Method, P extends ApiPath<M>> = undefined extends PathParams<M, P> ? { params?: undefined } : { params: PathParams<M, P> };
type BodyOption<M extends Method, P extends ApiPath<M>> = [Json<M, P>] extends [never]
  ? { body?: undefined }
  : undefined extends RequestBody<M, P>
    ? { body?: Json<M, P> }
    : { body: Json<M, P> };
/**
 * What a call of `M P` takes: `params` fills the path's `{name}`s (each URI-encoded), `body` is the JSON request body,
 * `query` the query string (`query()`: empty values left out), `asKey` an API key for this one call (see `request`).
 */
export type ApiOptions<M extends Method, P extends ApiPath<M>> = ParamsOption<M, P> &
  BodyOption<M, P> & { query?: Record<string, string | number | undefined>; asKey?: string };

/** The documented path with its `{name}`s filled in from `params` (URI-encoded), and the query string. */
export function apiUrl(path: string, params?: Record<string, string>, search?: Record<string, string | number | undefined>): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  return `${filled}${search ? query(search) : ''}`;
}

/**
 * One call of an operation of the API reference (docs/openapi.json), typed by its path and method: the path as
 * documented (`/applications/{id}`) with `params`, the request body and the reply are the generated types, so a
 * renamed field, path or method of the API fails the console's type check.
 */
export function api<M extends Method, P extends ApiPath<M>>(
  method: M,
  path: P,
  ...[options]: Partial<ApiOptions<M, P>> extends ApiOptions<M, P> ? [options?: ApiOptions<M, P>] : [options: ApiOptions<M, P>]
): Promise<ApiReply<M, P>> {
  const {
    params,
    body,
    query: search,
    asKey,
  } = (options ?? {}) as { params?: Record<string, string>; body?: unknown; query?: Record<string, string | number | undefined>; asKey?: string };
  return request<ApiReply<M, P>>(method, apiUrl(path, params, search), body, asKey);
}

/**
 * One call to the API of this origin with the console session (cookie plus CSRF header); problems become ApiError.
 * `asKey`: this one call is made with that API key instead (the gateway prefers the header to the session), e.g. a
 * private application's key for a reactor's test run; its 401 does not end the console session. Untyped: `api` calls
 * the documented operations through it; the console's own routes (/console/session, /console/sign-in-options), which
 * the API reference does not describe, call it directly.
 */
export async function request<T>(method: Method, path: string, body?: unknown, asKey?: string): Promise<T> {
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

/** A page of a list as the API answers it (ApplicationPage, TokenPage, …): the items and the pagination. */
export interface Page<T> {
  pagination: Schema<'AnyPagination'>;
  data: T[];
}

export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
