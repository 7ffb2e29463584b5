import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ProblemError, STATUS_TITLES, type Principal, type Problem } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import type { Logger } from '@coffer/observability';
import type { PrincipalResolver } from '../auth/principal-resolver';
import type { GatewayRequest } from '../http/gateway-request';
import { CONSOLE_COOKIE, CSRF_COOKIE, type ConsoleSessions } from './console-sessions';
import type { SignInLimiter } from './sign-in-limiter';

/**
 * What a browser may do with the console's pages: scripts and calls from this origin only (no inline script, no
 * eval), no framing, no plugins, no form posts elsewhere. Styles may also be inline: the code editor (CodeMirror)
 * writes its theme into a style element at run time.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * The built console: `configured` (CONSOLE_DIR, read by config.ts), else next to the gateway's bundle (the image) or
 * beside it in dist/apps (npm start).
 */
export function consoleDir(configured?: string, bundleDir = path.dirname(path.resolve(process.argv[1] ?? '.'))): string | undefined {
  const candidates = [configured, path.join(bundleDir, 'console'), path.join(bundleDir, '..', 'console')];
  return candidates.find((d): d is string => !!d && fs.existsSync(path.join(d, 'index.html')));
}

function sendProblem(reply: FastifyReply, problem: Problem, retryAfter?: number): FastifyReply {
  if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
  return reply.status(problem.status).header('content-type', 'application/problem+json').header('cache-control', 'no-store').send(problem);
}

function cookie(name: string, value: string, { httpOnly, clear }: { httpOnly: boolean; clear?: boolean }): string {
  // Secure and SameSite=Strict always (browsers keep Secure cookies of http://localhost too); Path=/ reaches the API
  return [`${name}=${clear ? '' : value}`, 'Path=/', 'Secure', 'SameSite=Strict', ...(httpOnly ? ['HttpOnly'] : []), ...(clear ? ['Max-Age=0'] : [])].join(
    '; ',
  );
}

function describe(principal: Principal, csrf?: string) {
  return {
    ...(csrf ? { csrf_token: csrf } : {}),
    tenant_id: principal.tenantId,
    application_id: principal.applicationId,
    application_type: principal.applicationType,
    permissions: principal.permissions,
    ...(principal.rules?.length ? { rules: principal.rules } : {}),
  };
}

/**
 * The console under /console, on its own origin (console-origin.ts): its static pages with a strict CSP, and its
 * sign-in (POST /console/session, limited per client address and key), session check (GET) and sign-out (DELETE). Plain Fastify routes, keyless like /docs: the API routes the pages call
 * authenticate the session cookie through PrincipalResolver.
 */
export function registerConsole(
  fastify: FastifyInstance,
  sessions: ConsoleSessions,
  resolver: PrincipalResolver,
  limiter: SignInLimiter,
  logger: Logger,
  /** where the built console is: consoleDir(config.console.dir) */
  dir: string | undefined,
): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    const url = request.url;
    if (url === '/console' || url.startsWith('/console/') || url.startsWith('/console?')) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) void reply.header(name, value);
      // hashed asset names change with their content: cached for good; everything else is always fresh
      void reply.header('cache-control', url.startsWith('/console/assets/') ? 'public, max-age=31536000, immutable' : 'no-store');
    }
    return payload;
  });

  fastify.post('/console/session', async (request, reply) => {
    const body = request.body as { api_key?: unknown } | undefined;
    const key = body?.api_key;
    if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
      return sendProblem(reply, {
        title: STATUS_TITLES[400] ?? 'Bad Request',
        status: 400,
        detail: 'api_key (the key of a management or private application) is required',
        errors: { api_key: ['is required'] },
      } as Problem);
    }
    const keyHash = sha256Hex(key);
    const wait = limiter.admit(request.ip, keyHash);
    if (wait > 0) {
      logger.warn({ client: request.ip }, 'console sign-in refused: too many attempts');
      return sendProblem(reply, { title: STATUS_TITLES[429] ?? 'Too Many Requests', status: 429, detail: 'Too many sign-in attempts: try again later' }, wait);
    }
    let principal: Principal | null;
    try {
      principal = await resolver.principalOf(keyHash, (request as GatewayRequest).traceId);
    } catch (err) {
      if (err instanceof ProblemError) return sendProblem(reply, err.problem);
      throw err;
    }
    if (!principal) return sendProblem(reply, { title: STATUS_TITLES[401] ?? 'Unauthorized', status: 401, detail: 'The API key is invalid or expired' });
    if (principal.sessionId || principal.applicationType === 'public') {
      return sendProblem(reply, {
        title: STATUS_TITLES[403] ?? 'Forbidden',
        status: 403,
        detail: 'Sign in with the key of a management or private application (not a public key or a session key)',
      });
    }
    let opened: { id: string; csrf: string };
    try {
      opened = sessions.create(keyHash);
    } catch (err) {
      if (err instanceof ProblemError) return sendProblem(reply, err.problem, err.retryAfter);
      throw err;
    }
    const { id, csrf } = opened;
    logger.info({ tenantId: principal.tenantId, applicationId: principal.applicationId }, 'console sign-in');
    return reply
      .status(201)
      .header('set-cookie', [cookie(CONSOLE_COOKIE, id, { httpOnly: true }), cookie(CSRF_COOKIE, csrf, { httpOnly: false })])
      .header('cache-control', 'no-store')
      .send(describe(principal, csrf));
  });

  fastify.get('/console/session', async (request, reply) => {
    try {
      const principal = await resolver.resolve(request);
      return reply.header('cache-control', 'no-store').send(describe(principal));
    } catch (err) {
      if (err instanceof ProblemError) return sendProblem(reply, err.problem);
      throw err;
    }
  });

  fastify.delete('/console/session', async (request, reply) => {
    try {
      // the CSRF header is checked like on any call: another site cannot sign the operator out either
      if (!sessions.keyHashOf(request)) throw new ProblemError(401, 'There is no console session to end');
    } catch (err) {
      if (err instanceof ProblemError) return sendProblem(reply, err.problem);
      throw err;
    }
    sessions.destroy(request);
    return reply
      .status(204)
      .header('set-cookie', [cookie(CONSOLE_COOKIE, '', { httpOnly: true, clear: true }), cookie(CSRF_COOKIE, '', { httpOnly: false, clear: true })])
      .send();
  });

  if (!dir) {
    logger.warn('the console is not built (nx build console): /console/ answers 404');
    fastify.get('/console/*', async (_request, reply) =>
      sendProblem(reply, { title: STATUS_TITLES[404] ?? 'Not Found', status: 404, detail: 'The console is not built into this gateway' }),
    );
    return;
  }
  // the page itself (also at /console: the router ignores trailing slashes), then its hashed assets
  const index = fs.readFileSync(path.join(dir, 'index.html'));
  fastify.get('/console/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(index));
  void fastify.register(fastifyStatic, { root: dir, prefix: '/console/', decorateReply: false, index: false, wildcard: true });
}
