import type { INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { PrismaService } from '@coffer/db';
import type { NatsConnection } from 'nats';
import { PinoNestLogger, createLogger, envInt, envString, startHealthServer, validateConfig, type ReadinessCheck } from '@coffer/observability';
import { EventBus } from './event-bus';
import { RpcProblemFilter } from './rpc-problem.filter';
import { InFlightRequests } from './in-flight';
import { superviseHandlers } from './rpc-supervision';
import { natsConnectionOptions } from './nats-config';
import { ArrivalStampingDeserializer } from './request-deadline';
import { coalesceWrites } from './write-coalescing';
import type { HandlerInvoker } from './operations/invoker';

/** The parts of Nest's ServerNats that graceful shutdown and the hot path need (not public API; checked at run time). */
interface NatsServerInternals {
  waitForGracePeriod?: () => Promise<void>;
  subscriptions?: Array<{ drain(): Promise<void> }>;
  createNatsClient?: () => Promise<NatsConnection>;
  getRouteFromPattern?: (pattern: string) => string;
  messageHandlers?: Map<string, never>;
}

/**
 * Hot-path adjustments of Nest's NATS server, measured in issue 14: its replies leave in coalesced writes (see
 * coalesceWrites), and the route of a subject is looked up once. Nest tries JSON.parse on every incoming subject
 * first (throwing, with a stack trace, for every plain subject such as `token.tokens.get`: 4% of token-service's CPU);
 * the subjects are the service's own subscriptions, a small fixed set, so the memo stays small.
 */
function tuneNatsServer(server: NatsServerInternals): void {
  const create = server.createNatsClient?.bind(server);
  if (create)
    server.createNatsClient = async () => {
      const nc = await create();
      coalesceWrites(nc);
      return nc;
    };
  const route = server.getRouteFromPattern?.bind(server);
  if (route) {
    const routes = new Map<string, string>();
    server.getRouteFromPattern = (pattern: string) => {
      let r = routes.get(pattern);
      if (r === undefined) {
        r = route(pattern);
        if (typeof pattern === 'string' && routes.size < 10_000) routes.set(pattern, r);
      }
      return r;
    };
  }
}

export interface ServiceDefinition {
  /** e.g. 'token-service'; also the NATS queue group, so replicas share the work */
  name: string;
  module: Type<unknown>;
  defaultHealthPort: number;
  /** the service keeps its state in PostgreSQL: DATABASE_URL is required, and readiness checks the database */
  usesDatabase: boolean;
  /** validates the rest of the configuration before anything starts; throw ConfigError naming the variable */
  validateConfig?: () => void;
  /** the hook every request handler is called through (the service's OperationDispatcher) */
  invoker?: (app: INestMicroservice) => HandlerInvoker;
}

/** Ready when the database (if the service has one) and the bus answer. */
function readinessChecks(def: ServiceDefinition, app: INestMicroservice): Record<string, ReadinessCheck> {
  const checks: Record<string, ReadinessCheck> = {};
  if (def.usesDatabase) checks['database'] = () => app.get(PrismaService).ping();
  checks['nats'] = () => app.get(EventBus).ping();
  return checks;
}

/**
 * Starts a NATS microservice with its health port, and stops it gracefully on SIGTERM/SIGINT: readiness turns
 * red, NATS subscriptions drain (in-flight requests finish, no new ones arrive), then the process exits.
 */
export async function bootstrapService(def: ServiceDefinition): Promise<INestMicroservice> {
  process.env['SERVICE_NAME'] ??= def.name;
  const logger = createLogger(def.name);
  const healthPort = validateConfig(def.name, () => {
    if (def.usesDatabase) envString('DATABASE_URL');
    def.validateConfig?.();
    return envInt('HEALTH_PORT', def.defaultHealthPort, 1, 65535);
  });
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(def.module, {
    transport: Transport.NATS,
    // the deserializer notes each request's arrival: one whose caller gave up before it could start is dropped
    options: { ...natsConnectionOptions(def.name), queue: def.name, gracefulShutdown: true, deserializer: new ArrivalStampingDeserializer() } as never,
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
  });
  app.useGlobalFilters(new RpcProblemFilter(logger));
  const inFlight = new InFlightRequests();
  // Nest's graceful NATS shutdown unsubscribes, waits, then closes: wait for our handlers, not a fixed period.
  const server = (app as unknown as { serverInstance?: NatsServerInternals }).serverInstance;
  if (server) {
    server.waitForGracePeriod = () => inFlight.idle(20_000);
    tuneNatsServer(server);
  }
  let shuttingDown = false;
  const health = await startHealthServer(healthPort, readinessChecks(def, app), () => shuttingDown);
  // handlers are registered by init; wrapped before listen subscribes, so every message is counted and logged
  await app.init();
  if (!server || !superviseHandlers(server, inFlight, logger, def.invoker?.(app)))
    throw new Error(`${def.name}: Nest's microservice server no longer has the shape superviseHandlers expects (messageHandlers)`);
  await app.listen();
  logger.info({ healthPort }, `${def.name} listening on NATS`);

  const stop = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down: draining NATS subscriptions');
    const force = setTimeout(() => process.exit(1), Number(process.env['SHUTDOWN_TIMEOUT_MS'] ?? 25_000));
    force.unref();
    try {
      // Drain, not unsubscribe: messages the client already holds are still handled (an unsubscribe would drop them
      // and their callers would wait for the deadline). Then wait for running handlers, then close.
      await Promise.all((server?.subscriptions ?? []).map((sub) => sub.drain().catch(() => undefined)));
      await inFlight.settle(250, 20_000);
      await app.close();
    } finally {
      health.close();
      logger.info('stopped');
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return app;
}
