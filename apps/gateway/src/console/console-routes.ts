import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ProblemError, STATUS_TITLES, type ConsoleSignInMessage, type ConsoleSignInReply, type Principal, type Problem } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import type { Logger } from '@coffer/observability';
import type { PrincipalResolver } from '../auth/principal-resolver';
import { refusalSource, type RefusalTally } from '../auth/refusal-tally';
import { builtFilesDir, gatewayBundleDir } from '../http/built-files';
import type { GatewayRequest } from '../http/gateway-request';
import { CONSOLE_COOKIE, CSRF_COOKIE, type ConsoleSessions } from './console-sessions';
import type { SignInLimiter } from './sign-in-limiter';
import { SingleSignOnRefusal, type SingleSignOn } from './single-sign-on';

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
export function consoleDir(configured?: string, bundleDir = gatewayBundleDir()): string | undefined {
  return builtFilesDir('console', 'index.html', configured, bundleDir);
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

function describe(principal: Principal, csrf?: string, tenants?: ConsoleSignInReply['tenants']) {
  return {
    ...(csrf ? { csrf_token: csrf } : {}),
    tenant_id: principal.tenantId,
    // a person acts as a management principal named by their user id
    application_id: principal.applicationId,
    application_type: principal.applicationType,
    permissions: principal.permissions,
    ...(principal.rules?.length ? { rules: principal.rules } : {}),
    ...(principal.user ? { user: { id: principal.user.id, email: principal.user.email, role: principal.user.role, member_id: principal.user.memberId } } : {}),
    ...(tenants ? { tenants } : {}),
  };
}

function problemOf(status: number, detail: string, errors?: Record<string, string[]>): Problem {
  return { title: STATUS_TITLES[status] ?? 'Error', status, detail, ...(errors ? { errors } : {}) } as Problem;
}

/** The console's page with a sign-in error for the person to read (the callback is a browser navigation, not a call). */
function backToSignIn(reply: FastifyReply, message: string): FastifyReply {
  return reply
    .status(303)
    .header('location', `/console/?sign_in_error=${encodeURIComponent(message)}`)
    .header('cache-control', 'no-store')
    .send();
}

export interface ConsoleDependencies {
  sessions: ConsoleSessions;
  resolver: PrincipalResolver;
  limiter: SignInLimiter;
  refusals: RefusalTally;
  logger: Logger;
  /** single sign-on through the installation's OpenID Connect provider; absent when OIDC_ISSUER is unset */
  sso?: SingleSignOn;
  /** where the built console is: consoleDir(config.console.dir) */
  dir: string | undefined;
}

/**
 * The console under /console, on its own origin (console-origin.ts): its static pages with a strict CSP; sign-in by a
 * person through single sign-on (GET /console/oidc/start, then the provider's redirect to /console/oidc/callback) or,
 * as break-glass, by a management key (POST /console/session); the session check (GET) and sign-out (DELETE, with
 * `?everywhere=true` every session of the person). Sessions live in PostgreSQL (session-service); plain Fastify
 * routes, keyless like /docs: the API routes the pages call authenticate the session cookie through PrincipalResolver.
 */
export function registerConsole(fastify: FastifyInstance, deps: ConsoleDependencies): void {
  const { sessions, resolver, limiter, refusals, logger, sso, dir } = deps;
  fastify.addHook('onSend', async (request, reply, payload) => {
    const url = request.url;
    if (url === '/console' || url.startsWith('/console/') || url.startsWith('/console?')) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) void reply.header(name, value);
      // hashed asset names change with their content: cached for good; everything else is always fresh
      void reply.header('cache-control', url.startsWith('/console/assets/') ? 'public, max-age=31536000, immutable' : 'no-store');
    }
    return payload;
  });

  /** Opens the session session-service created: its cookies, and the principal it acts as. */
  const opened = (reply: FastifyReply, signedIn: ConsoleSignInReply) =>
    reply.header('set-cookie', [
      cookie(CONSOLE_COOKIE, signedIn.sessionId, { httpOnly: true }),
      cookie(CSRF_COOKIE, signedIn.csrf, { httpOnly: false }),
      ...(sso ? [sso.clearCookie] : []),
    ]);

  const signIn = async (message: ConsoleSignInMessage, request: FastifyRequest): Promise<ConsoleSignInReply> =>
    sessions.signIn({ ...message, source: refusalSource(request.ip) }, (request as GatewayRequest).traceId);

  fastify.post('/console/session', async (request, reply) => {
    const body = request.body as { api_key?: unknown } | undefined;
    const key = body?.api_key;
    if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
      return sendProblem(reply, problemOf(400, 'api_key (the key of a management or private application) is required', { api_key: ['is required'] }));
    }
    const keyHash = sha256Hex(key);
    const wait = await limiter.admit(request.ip, keyHash, (request as GatewayRequest).traceId);
    if (wait > 0) {
      logger.warn({ client: request.ip }, 'console sign-in refused: too many attempts');
      return sendProblem(reply, problemOf(429, 'Too many sign-in attempts: try again later'), wait);
    }
    let signedIn: ConsoleSignInReply;
    try {
      signedIn = await signIn({ keyHash }, request);
    } catch (err) {
      if (!(err instanceof ProblemError)) throw err;
      // an unknown key: counted like a refused API key (session-service records the refusals of keys it knows)
      if (err.problem.status === 401) refusals.count(undefined, 'invalid_key', refusalSource(request.ip), new Date(), (request as GatewayRequest).traceId);
      return sendProblem(reply, err.problem, err.retryAfter);
    }
    logger.info({ tenantId: signedIn.principal.tenantId, applicationId: signedIn.principal.applicationId }, 'console sign-in with a key');
    return opened(reply.status(201), signedIn).header('cache-control', 'no-store').send(describe(signedIn.principal, signedIn.csrf));
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
    const everywhere = (request.query as Record<string, unknown> | undefined)?.['everywhere'] === 'true';
    const idHash = resolver.consoleSessionOf(request);
    try {
      // the CSRF header is checked like on any call: another site cannot sign the operator out either
      if (!idHash) throw new ProblemError(401, 'There is no console session to end');
      await resolver.resolve(request);
      await sessions.signOut(idHash, everywhere, (request as GatewayRequest).traceId);
    } catch (err) {
      if (err instanceof ProblemError) return sendProblem(reply, err.problem);
      throw err;
    }
    return reply
      .status(204)
      .header('set-cookie', [cookie(CONSOLE_COOKIE, '', { httpOnly: true, clear: true }), cookie(CSRF_COOKIE, '', { httpOnly: false, clear: true })])
      .send();
  });

  /** What the sign-in page offers: single sign-on (and its button's label) when configured. */
  fastify.get('/console/sign-in-options', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ sso: sso ? { name: sso.providerName, start: '/console/oidc/start' } : null }),
  );

  fastify.get('/console/oidc/start', async (request, reply) => {
    if (!sso) return sendProblem(reply, problemOf(404, 'Single sign-on is not configured (OIDC_ISSUER)'));
    const query = request.query as Record<string, unknown>;
    const invitation = typeof query['invitation'] === 'string' && query['invitation'].length <= 200 ? query['invitation'] : undefined;
    const tenantId = typeof query['tenant_id'] === 'string' && /^[0-9a-f-]{36}$/i.test(query['tenant_id']) ? query['tenant_id'] : undefined;
    try {
      const { url, cookie: transaction } = await sso.begin({ invitation, tenantId });
      return reply.status(302).header('location', url).header('set-cookie', transaction).header('cache-control', 'no-store').send();
    } catch (err) {
      logger.error({ err: { message: (err as Error).message } }, 'single sign-on could not start: the identity provider is unreachable');
      return sendProblem(reply, problemOf(503, 'The identity provider cannot be reached: try again later'), 30);
    }
  });

  fastify.get('/console/oidc/callback', async (request, reply) => {
    if (!sso) return sendProblem(reply, problemOf(404, 'Single sign-on is not configured (OIDC_ISSUER)'));
    const source = refusalSource(request.ip);
    const state = (request.query as Record<string, unknown>)['state'];
    const wait = await limiter.admit(request.ip, `oidc:${typeof state === 'string' ? state.slice(0, 100) : ''}`, (request as GatewayRequest).traceId);
    if (wait > 0) return sendProblem(reply, problemOf(429, 'Too many sign-in attempts: try again later'), wait);
    let completed: Awaited<ReturnType<SingleSignOn['complete']>>;
    try {
      completed = await sso.complete(request);
    } catch (err) {
      if (!(err instanceof SingleSignOnRefusal)) throw err;
      // counted like refused keys (per tenant if known, reason, address and minute): a flood of forged callbacks adds
      // one audit row a minute
      refusals.count(err.tenantId, 'sign_in_refused', source, new Date(), (request as GatewayRequest).traceId);
      logger.warn({ reason: err.reason, client: source }, 'console single sign-on refused');
      void reply.header('set-cookie', sso.clearCookie);
      return backToSignIn(reply, err.message);
    }
    let signedIn: ConsoleSignInReply;
    try {
      signedIn = await signIn(
        {
          identity: completed.identity,
          ...(completed.tenantId ? { tenantId: completed.tenantId } : {}),
          ...(completed.invitation ? { invitationTokenHash: sha256Hex(completed.invitation) } : {}),
        },
        request,
      );
    } catch (err) {
      if (!(err instanceof ProblemError)) throw err;
      void reply.header('set-cookie', sso.clearCookie);
      if (err.problem.status >= 500) return sendProblem(reply, err.problem, err.retryAfter);
      return backToSignIn(reply, err.problem.detail ?? 'The sign-in was refused');
    }
    logger.info({ tenantId: signedIn.principal.tenantId, userId: signedIn.principal.user?.id }, 'console sign-in with single sign-on');
    return opened(reply.status(303), signedIn).header('location', '/console/').header('cache-control', 'no-store').send();
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
