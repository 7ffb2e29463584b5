import './tracing';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { stopTracing } from '@coffer/observability/tracing';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventBus } from '@coffer/bus';
import { PinoNestLogger, createLogger, nameThisService, onStopSignal, reclaimMemoryAfterStart, startHealthServer, validateConfig } from '@coffer/observability';
import { gatewayConfig } from './config';
import { AppModule } from './app.module';
import { configureFastify } from './http/fastify-setup';
import { fastifyTrustProxy } from './http/trust-proxy';
import { registerBackPressure } from './http/back-pressure';
import { registerBodyDeadline, serverTimeoutOptions } from './http/request-timeouts';
import { readRefusedBodies } from './http/refused-body';
import { PrincipalResolver } from './auth/principal-resolver';
import { RefusalTally } from './auth/refusal-tally';
import { BODY_LIMIT_BYTES, MAX_PARAM_LENGTH, onCheckExpectation, onClientError, onConnect, onFrameworkError } from './http/framework-errors';
import { ProblemFilter } from './http/problem.filter';
import { HeaderNames } from './http/coffer-headers';
import { setupOpenApi } from './docs/openapi';
import { consoleDir, registerConsole } from './console/console-routes';
import { ConsoleSessions } from './console/console-sessions';
import { closeConsoleListener, listenForConsole, separateConsoleOrigin } from './console/console-origin';
import { SignInLimiter } from './console/sign-in-limiter';
import { RateLimitLeases } from './rate-limit/rate-limit-leases';
import { OidcSignOn } from './console/single-sign-on';
import { FrameAncestors } from './elements/frame-ancestors';
import { elementsDir, listenForElements, redirectElementsToTheirOrigin, type ElementsListener } from './elements/elements-origin';
import { TenantSettingsClient } from '@coffer/bus';
import type { Server } from 'node:http';
import { cutAfterMs, drainHttp } from './http/http-drain';

async function bootstrap() {
  // every variable is read and checked here, once: a bad value stops the gateway (exit 78) naming the variable
  const config = validateConfig('gateway', gatewayConfig);
  const port = config.port;
  // SERVICE_NAME is internal (libs/bus names its NATS connections with it), not configuration
  nameThisService('gateway');
  const logger = createLogger('gateway');
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule,
    new FastifyAdapter({
      bodyLimit: BODY_LIMIT_BYTES,
      // header, body and idle timeouts: a client that stops sending holds a connection for a bounded time only
      ...serverTimeoutOptions(config.requestTimeouts),
      // TRUST_PROXY: which X-Forwarded-For to believe (none by default: the client is the socket's address)
      trustProxy: fastifyTrustProxy(config.trustProxy),
      // a request that arrives on an open connection while the gateway stops is still answered (the bus is up until
      // the HTTP server has closed), with `Connection: close` so the client's next request goes to another replica
      return503OnClosing: false,
      // `/tokens/` is `/tokens`: clients of the mirrored service send collection calls with a trailing slash
      routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: true },
      // errors raised before any route runs are problem documents too, and never quote the request
      frameworkErrors: onFrameworkError,
      clientErrorHandler: onClientError,
    }),
    { logger: new PinoNestLogger(logger), bufferLogs: false, bodyParser: false },
  );
  let shuttingDown = false;
  const events = app.get(EventBus);
  app.getHttpServer().on('connect', onConnect);
  app.getHttpServer().on('checkExpectation', onCheckExpectation);
  const readiness = { nats: () => events.ping() };
  configureFastify(app.getHttpAdapter().getInstance(), logger, readiness, () => shuttingDown);
  // first of the request hooks: the console's origin serves the console only, the API's redirects /console there
  separateConsoleOrigin(app.getHttpAdapter().getInstance(), config.console.port ? config.console.url : undefined);
  // the hosted card fields live on an origin of their own: the API's answers /elements with a redirect there
  if (config.elements.port) redirectElementsToTheirOrigin(app.getHttpAdapter().getInstance(), config.elements.url);
  // metrics only on the health port, like every service: the API's port (what the internet reaches) never serves them
  const health = await startHealthServer(config.healthPort, readiness, () => shuttingDown, config.healthHost);
  registerBodyDeadline(app.getHttpAdapter().getInstance(), config.requestTimeouts);
  // a 413 that closes the connection waits for the rest of the body, so a client still sending it can read the answer
  readRefusedBodies(app.getHttpAdapter().getInstance());
  // the API key is resolved as soon as the headers are in, through the path ApiKeyGuard uses (it reuses the principal)
  registerBackPressure(app.getHttpAdapter().getInstance(), config.backPressure, app.get(PrincipalResolver));
  // every 401 and 403, counted per tenant, reason, client and minute for the audit trail
  app.get(RefusalTally).register(app.getHttpAdapter().getInstance());
  app.useGlobalFilters(new ProblemFilter(logger));
  // Browsers call with session keys (public applications): keys travel in headers, never cookies.
  app.enableCors({
    // CORS_ORIGINS: any origin by default — keys are headers, not cookies
    // the Elements frames call the API from their own origin, whatever list the operator set
    origin: config.corsOrigins === true ? true : [...config.corsOrigins, ...(config.elements.port ? [config.elements.url] : [])],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['content-type', ...new HeaderNames().all],
    exposedHeaders: [...new HeaderNames().traceId, 'retry-after'],
    maxAge: 600,
    // every OPTIONS is answered as a preflight: strict mode refused one without Origin or Access-Control-Request-Method
    // with a text/plain 400, not a problem document
    strictPreflight: false,
  });

  // the API reference: Swagger UI at /docs, the document at /docs/openapi.json (snapshot: docs/openapi.json)
  setupOpenApi(app);
  // the web console at /console (apps/console) on its own port, signed in with a session cookie instead of a key header
  registerConsole(app.getHttpAdapter().getInstance(), {
    sessions: app.get(ConsoleSessions),
    resolver: app.get(PrincipalResolver),
    limiter: new SignInLimiter(config.console.signInLimit, app.get(RateLimitLeases).signIn),
    refusals: app.get(RefusalTally),
    logger,
    sso: config.oidc ? new OidcSignOn(config.oidc) : undefined,
    dir: consoleDir(config.console.dir),
  });
  let consoleServer: Server | undefined;
  let elementsListener: ElementsListener | undefined;

  // Graceful shutdown: readiness turns red, the server stops accepting, in-flight requests finish, then exit.
  const stop = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs).unref();
    // the HTTP server first (http-drain.ts): Nest's own close drains the bus before it closes the server, and an
    // answer still waiting on a service's reply was lost (a 503)
    await Promise.all([
      drainHttp(app.getHttpAdapter().getInstance(), cutAfterMs(config.shutdownTimeoutMs)),
      consoleServer ? closeConsoleListener(consoleServer, cutAfterMs(config.shutdownTimeoutMs)) : undefined,
      elementsListener?.close(),
    ]);
    await app.close();
    health.close();
    // the spans of the last requests leave before the process does
    await stopTracing();
    process.exit(0);
  };
  onStopSignal((signal) => void stop(signal));

  // both address families where the host has IPv6 (`localhost` may be ::1), else IPv4 only
  await app.listen(port, '::').catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EAFNOSUPPORT' && err.code !== 'EADDRNOTAVAIL') throw err;
    return app.listen(port, '0.0.0.0');
  });
  if (config.console.port) consoleServer = await listenForConsole(app.getHttpAdapter().getInstance(), config.console.port, config.requestTimeouts);
  const fieldsDir = config.elements.port ? elementsDir(config.elements.dir) : undefined;
  if (config.elements.port && !fieldsDir) logger.warn('Elements are not built (nx build elements): their origin is not served');
  if (fieldsDir) {
    const resolver = app.get(PrincipalResolver);
    const settings = app.get(TenantSettingsClient);
    const ancestors = new FrameAncestors({
      principalOf: (keyHash, traceId) => resolver.principalOf(keyHash, traceId),
      settingsOf: (principal, traceId) => settings.get(principal, traceId),
    });
    settings.onChange((tenantId) => ancestors.forgetTenant(tenantId));
    elementsListener = await listenForElements(config.elements, fieldsDir, ancestors, config.requestTimeouts, logger);
  }
  logger.info(
    {
      port,
      healthPort: config.healthPort,
      consolePort: config.console.port || undefined,
      consoleUrl: config.console.port ? config.console.url : undefined,
      elementsUrl: fieldsDir ? config.elements.url : undefined,
    },
    'gateway listening',
  );
  // what start-up left behind is given back a moment after it listens; later whenever quiet after work (libs/observability)
  reclaimMemoryAfterStart();
}

void bootstrap();
