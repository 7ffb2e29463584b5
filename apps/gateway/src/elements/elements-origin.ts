import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { STATUS_TITLES } from '@coffer/contracts';
import type { Logger } from '@coffer/observability';
import type { ElementsConfig } from '../config';
import { builtFilesDir, gatewayBundleDir } from '../http/built-files';
import { onCheckExpectation, onClientError, onConnect } from '../http/framework-errors';
import { serverTimeoutOptions, type RequestTimeouts } from '../http/request-timeouts';
import { KEY_HASH_PATTERN, TooManyLookups, type FrameAncestors } from './frame-ancestors';

/**
 * Coffer Elements, the hosted card fields, on an origin of their own. Their frames hold card numbers, so nothing
 * else may ever be served on their origin: not the API (a proxied answer is somebody else's content), not the
 * console. This listener is its own small Fastify server with no API route at all: the loader script, the frame
 * pages, their hashed scripts, the React wrapper and (when ELEMENTS_DEMO is on) the demo checkout. The frames call
 * the API on its own origin (ELEMENTS_API_URL), the only place their CSP lets them connect to.
 */
export const ELEMENTS_PREFIX = '/elements/v1/';

/** The API origin's address in a frame page, filled in when the page is served. */
const API_URL_PLACEHOLDER = '%COFFER_API_URL%';

/**
 * What a frame may do: run its own script, style itself (and load the web fonts a merchant names), call the API, and
 * be framed by the pages its tenant allows. No inline script, no plugin, no form post, no base change.
 */
export function frameCsp(apiUrl: string, frameAncestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' https://fonts.googleapis.com",
    "font-src 'self' https://fonts.gstatic.com data:",
    "img-src 'self' data:",
    `connect-src ${apiUrl}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/** The demo checkout: its own script and the fields' frames, framed by nobody. */
const DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/**
 * The built Elements files: `configured` (ELEMENTS_DIR), else next to the gateway's bundle (the image) or beside it
 * in dist/apps (npm start).
 */
export function elementsDir(configured?: string, bundleDir = gatewayBundleDir()): string | undefined {
  return builtFilesDir('elements', 'elements.js', configured, bundleDir);
}

function notFound(reply: FastifyReply, detail = 'The Elements origin serves the Elements files only'): FastifyReply {
  return reply
    .status(404)
    .header('content-type', 'application/problem+json')
    .header('cache-control', 'no-store')
    .send({ title: STATUS_TITLES[404] ?? 'Not Found', status: 404, detail });
}

/** `frames/card.html` → its text with the API's address filled in, read once at start. */
function readPages(dir: string, sub: string, apiUrl: string): Map<string, string> {
  const folder = path.join(dir, sub);
  const pages = new Map<string, string>();
  if (!fs.existsSync(folder)) return pages;
  for (const name of fs.readdirSync(folder)) {
    if (name.endsWith('.html')) pages.set(name, fs.readFileSync(path.join(folder, name), 'utf8').replaceAll(API_URL_PLACEHOLDER, apiUrl));
  }
  return pages;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

interface StaticFile {
  body: Buffer;
  headers: Record<string, string>;
}

/**
 * Every file the fields need, read once at start into memory (the whole build is a few hundred kilobytes): nothing
 * on disk is reached from a request's path, so no path can lead outside the build. Scripts are loaded by merchants'
 * pages, from another origin, often with Subresource Integrity (which needs CORS): readable from any origin.
 * Content-hashed files (`assets/`) never change; the rest (the loader's stable address) is re-checked every few
 * minutes so a fix reaches every page soon.
 */
function readStaticFiles(dir: string, demo: boolean): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) {
        if (relPath === 'demo' && !demo) continue;
        walk(relPath);
        continue;
      }
      const type = CONTENT_TYPES[path.extname(entry.name)];
      // pages are served by their own routes, with their policies; anything of no known type is not served
      if (!type) continue;
      const body = fs.readFileSync(path.join(dir, relPath));
      const immutable = relPath.startsWith('assets/');
      files.set(relPath, {
        body,
        headers: {
          ...COMMON_HEADERS,
          'content-type': type,
          'access-control-allow-origin': '*',
          'cross-origin-resource-policy': 'cross-origin',
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        },
      });
    }
  };
  walk('');
  return files;
}

export interface ElementsListener {
  server: FastifyInstance;
  close(): Promise<void>;
}

export async function listenForElements(
  config: ElementsConfig,
  dir: string,
  frameAncestors: FrameAncestors,
  timeouts: RequestTimeouts,
  logger: Logger,
): Promise<ElementsListener> {
  const options = serverTimeoutOptions(timeouts);
  const server = Fastify({ ...options, routerOptions: { ignoreTrailingSlash: true }, clientErrorHandler: onClientError });
  const frames = readPages(dir, 'frames', config.apiUrl);
  const demo = config.demo ? readPages(dir, 'demo', config.apiUrl) : new Map<string, string>();

  server.get<{ Params: { page: string }; Querystring: { k?: string } }>(`${ELEMENTS_PREFIX}frames/:page`, async (request, reply) => {
    const page = frames.get(request.params.page);
    if (!page) return notFound(reply, 'There is no such Elements frame');
    const k = typeof request.query.k === 'string' ? request.query.k : undefined;
    if (k !== undefined && !KEY_HASH_PATTERN.test(k)) {
      return reply
        .status(400)
        .header('content-type', 'application/problem+json')
        .send({ title: STATUS_TITLES[400] ?? 'Bad Request', status: 400, detail: 'k must be the SHA-256 of the key, in lower-case hex' });
    }
    let ancestors: string;
    try {
      ancestors = await frameAncestors.of(k, request.id);
    } catch (err) {
      if (!(err instanceof TooManyLookups)) logger.warn({ err: (err as Error).message }, 'elements: the tenant of a frame could not be looked up');
      return reply
        .status(503)
        .header('retry-after', '1')
        .header('content-type', 'application/problem+json')
        .send({ title: STATUS_TITLES[503] ?? 'Service Unavailable', status: 503, detail: 'The frame policy could not be looked up: try again' });
    }
    for (const [name, value] of Object.entries(COMMON_HEADERS)) void reply.header(name, value);
    // the policy follows the tenant's settings: never cached
    return reply
      .header('content-security-policy', frameCsp(config.apiUrl, ancestors))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page);
  });

  if (demo.size) {
    server.get(`${ELEMENTS_PREFIX}demo/`, async (_request, reply) => {
      for (const [name, value] of Object.entries(COMMON_HEADERS)) void reply.header(name, value);
      return reply
        .header('content-security-policy', DEMO_CSP)
        .header('x-frame-options', 'DENY')
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(demo.get('index.html'));
    });
  }

  const files = readStaticFiles(dir, config.demo);
  server.get<{ Params: { '*': string } }>(`${ELEMENTS_PREFIX}*`, async (request, reply) => {
    const file = files.get(request.params['*']);
    if (!file) return notFound(reply);
    if (request.headers['if-none-match'] === file.headers['etag']) return reply.headers(file.headers).status(304).send();
    return reply.headers(file.headers).send(file.body);
  });
  server.setNotFoundHandler((_request, reply) => notFound(reply));
  server.server.on('connect', onConnect);
  server.server.on('checkExpectation', onCheckExpectation);

  await server.listen({ port: config.port, host: '::' }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EAFNOSUPPORT' && err.code !== 'EADDRNOTAVAIL') throw err;
    await server.listen({ port: config.port, host: '0.0.0.0' });
  });
  return { server, close: () => server.close() };
}

/**
 * The API's origin answers /elements (and anything under it) with a redirect to the Elements origin, so an
 * integration needs one base URL; nothing of the fields is ever served there.
 */
export function redirectElementsToTheirOrigin(fastify: FastifyInstance, elementsUrl: string): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const url = request.raw.url ?? '/';
    if (!url.startsWith('/elements') || !(url.length === 9 || url[9] === '/' || url[9] === '?')) return done();
    void reply.header('cache-control', 'no-store').redirect(`${elementsUrl}${url}`, 307);
  });
}
