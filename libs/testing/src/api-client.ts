import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ApiMethod, ApiPath } from './api-paths';
import { ResponseValidator } from './response-validator';

export type { ApiMethod, ApiPath } from './api-paths';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** raw body text (bad JSON tests) */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** the origin to call: the API's (default) or the console's own (the gateway's CONSOLE_PORT) */
  origin?: 'api' | 'console';
  /** redirects are returned, not followed (the API origin's /console) */
  redirect?: 'manual';
  /**
   * the loopback address the call leaves from (`127.0.0.42`: Linux routes all of 127.0.0.0/8 to itself): the gateway
   * sees it as the client's socket address, so a test can tell its refusals apart without a forwarded header
   */
  localAddress?: string;
}

export function gatewayUrl(): string {
  const url = process.env['COFFER_E2E_URL'];
  if (!url) throw new Error('COFFER_E2E_URL is not set: run the end-to-end tests through `npm test`');
  return url;
}

/** The console's origin (the gateway's second listener), where the console's pages and cookie sessions live. */
export function consoleUrl(): string {
  const url = process.env['COFFER_E2E_CONSOLE_URL'];
  if (!url) throw new Error('COFFER_E2E_CONSOLE_URL is not set: run the end-to-end tests through `npm test`');
  return url;
}

/** The Elements origin (the gateway's third listener), where the hosted card fields' files are served. */
export function elementsUrl(): string {
  const url = process.env['COFFER_E2E_ELEMENTS_URL'];
  if (!url) throw new Error('COFFER_E2E_ELEMENTS_URL is not set: run the end-to-end tests through `npm test`');
  return url;
}

let validator: ResponseValidator | undefined;

/**
 * One call to an operation of the API reference (docs/openapi.json); never throws for an HTTP status. The method and
 * path are typed from the reference, and the response is checked against it: an undocumented status, or a body that
 * does not match the schema of its status, throws (a wrong reference fails the tests). Calls off the reference (bad
 * JSON, wrong content types, unknown paths or methods) use {@link apiRaw}.
 */
export async function api<T = any, M extends ApiMethod = ApiMethod>(method: M, path: ApiPath<M>, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  return apiDynamic<T>(method, path, opts);
}

/**
 * {@link api} for a method and path computed at run time (route tables, `pagination.next` links): not typed, but the
 * response is checked against the reference all the same.
 */
export async function apiDynamic<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const res = await apiRaw<T>(method, path, opts);
  validator ??= new ResponseValidator();
  const problems = validator.check(method, path, res.status, res.headers.get('content-type'), res.body, res.text);
  if (problems.length) throw new Error(`the response does not match the API reference (docs/openapi.json): ${problems.join('; ')}\n${res.text.slice(0, 2000)}`);
  return res;
}

/** One HTTP call to the gateway, any method and path, unchecked; never throws for an HTTP status. */
export async function apiRaw<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key !== undefined) headers['SVC-API-KEY'] = opts.key;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const base = opts.origin === 'console' ? consoleUrl() : gatewayUrl();
  const res = opts.localAddress
    ? await fromAddress(opts.localAddress, method, `${base}${path}`, headers, body)
    : await fetch(`${base}${path}`, { method, headers, body, redirect: opts.redirect ?? 'follow' });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** One call over node:http bound to `localAddress` (fetch cannot choose its local address). */
function fromAddress(localAddress: string, method: string, url: string, headers: Record<string, string>, body?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve(new Response(chunks.length ? Buffer.concat(chunks) : null, { status: res.statusCode ?? 0, headers: h }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface TestTenant {
  tenantId: string;
  managementKey: string;
  /** creates an application and returns its key */
  app(type: 'public' | 'private' | 'management', grants: { permissions?: string[]; rules?: unknown[] }): Promise<{ id: string; key: string }>;
}

/** A fresh tenant through the operator CLI (the built admin tool against the run's database). */
export async function createTenant(name = 'e2e'): Promise<TestTenant> {
  const root = path.resolve(__dirname, '../../..');
  // asynchronous: a blocking run would stall the test's event loop, and an HTTP keep-alive connection the gateway closed
  // meanwhile would then be reused ("other side closed"). stderr (the CLI's audit line) stays out of the test output.
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    [path.join(root, 'dist/tools/admin/main.js'), 'tenants', 'create', '--name', name, '--json'],
    {
      env: { ...process.env, DATABASE_URL: process.env['COFFER_E2E_DATABASE_URL'], KEY_ENCRYPTION_KEYS: process.env['COFFER_E2E_KEK'] },
      encoding: 'utf8',
    },
  );
  const { tenant_id, management_key } = JSON.parse(out);
  return {
    tenantId: tenant_id,
    managementKey: management_key,
    async app(type, grants) {
      const res = await api('POST', '/applications', { key: management_key, body: { name: `${type} app`, type, ...grants } });
      if (res.status !== 201) throw new Error(`could not create application: ${res.status} ${res.text}`);
      return { id: res.body.id, key: res.body.key };
    },
  };
}

/** A replica the control endpoint started: its HTTP port (the API's, for the gateway) and, for the gateway, the console's. */
export interface ReplicaPorts {
  port: number;
  consolePort: number;
}

/**
 * Stops, starts, pauses (SIGSTOP) or resumes one service of the running system (outage and lost-reply tests); `replica`
 * starts another instance and answers its ports.
 */
export async function control(
  action: 'stop' | 'start' | 'replica' | 'stop-replicas' | 'pause' | 'resume',
  service: string,
  signal?: 'SIGTERM' | 'SIGKILL',
): Promise<ReplicaPorts | undefined> {
  const res = await fetch(`${process.env['COFFER_E2E_CONTROL']}/${action}/${service}${signal ? `?signal=${signal}` : ''}`, { method: 'POST' });
  if (res.status === 200) return (await res.json()) as ReplicaPorts;
  if (res.status !== 204) throw new Error(`control ${action} ${service} failed: ${res.status}`);
  return undefined;
}

export const VISA = '4242424242424242';
export const MASTERCARD = '5555555555554444';
