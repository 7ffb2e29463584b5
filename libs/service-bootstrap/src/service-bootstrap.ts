import type { INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { stopTracing } from '@coffer/observability/tracing';
import { PrismaService, databaseConfig } from '@coffer/db';
import { CofferNatsServer, EventBus, RpcProblemFilter, type HandlerInvoker } from '@coffer/bus';
import { OperationDispatcher, assertHandlerCoverage, declaredOperations } from '@coffer/operations';
import { KeyEncryptionKeyProvider, validateKekConfig } from '@coffer/crypto';
import type { OperationRow } from '@coffer/contracts';
import {
  PinoNestLogger,
  createLogger,
  loadHealthHost,
  loadShutdownTimeoutMs,
  nameThisService,
  onStopSignal,
  reclaimMemoryAfterStart,
  reportMemoryReclaim,
  startHealthServer,
  validateConfig,
  type ReadinessCheck,
} from '@coffer/observability';

export interface ServiceDefinition {
  /** e.g. 'token-service'; also the NATS queue group, so replicas share the work */
  name: string;
  /**
   * The operation rows it serves (`rowsServedBy('token')`): it refuses to start unless each has exactly one handler
   * and every handler serves one of them (handler-coverage.ts).
   */
  operations: readonly OperationRow[];
  module: Type<unknown>;
  /**
   * The service's configuration parser (its config.ts): every variable is read and checked once, before anything
   * starts, and a bad value stops the process (exit 78) naming the variable. HEALTH_PORT is among them.
   */
  config: () => { readonly healthPort: number };
  /** the service keeps its state in PostgreSQL: DATABASE_URL is required, and readiness checks the database */
  usesDatabase: boolean;
  /** How a handler is invoked; by default through the operation dispatcher (the handlers' @Operation declarations). */
  invoker?: (app: INestMicroservice) => HandlerInvoker;
  /**
   * Work of the service's own to finish on SIGTERM after the requests drained and before the application closes:
   * Nest's destroy hooks close the database pools before any provider's shutdown hook runs, so whatever must still
   * write (deliveries under way) ends here.
   */
  drain?: (app: INestMicroservice) => Promise<void>;
}

/**
 * What a service checks before anything starts: for a service with a database, the secrets libs/db and libs/crypto
 * read themselves (DATABASE_URL, a postgres:// URL, with the pools' timeouts; KEY_ENCRYPTION_KEYS, its keyring's
 * key-encryption keys), then its own settings, then the health server's. Throws naming the first bad variable.
 */
export function readStartupConfig(def: Pick<ServiceDefinition, 'config' | 'usesDatabase'>): {
  healthPort: number;
  healthHost: string;
  shutdownTimeoutMs: number;
} {
  if (def.usesDatabase) {
    databaseConfig();
    validateKekConfig();
  }
  const { healthPort } = def.config();
  return { healthPort, healthHost: loadHealthHost(), shutdownTimeoutMs: loadShutdownTimeoutMs() };
}

const dispatchOperations = (app: INestMicroservice): HandlerInvoker => app.get(OperationDispatcher).invoker();

/** Ready when the database (if the service has one), the bus and the key-encryption key (if it has a keyring) answer. */
function readinessChecks(def: ServiceDefinition, app: INestMicroservice): Record<string, ReadinessCheck> {
  const checks: Record<string, ReadinessCheck> = {};
  if (def.usesDatabase) checks['database'] = () => app.get(PrismaService).ping();
  checks['nats'] = () => app.get(EventBus).ping();
  // the keyring keeps its wrapped keys in PostgreSQL, so only a service with a database has one; asking Nest for an
  // absent provider would not just throw but abort the process (proxy-service has neither)
  const kek = def.usesDatabase ? keyEncryptionKeyProvider(app) : undefined;
  if (kek) checks['key_encryption_key'] = () => kek.ready();
  return checks;
}

function keyEncryptionKeyProvider(app: INestMicroservice): KeyEncryptionKeyProvider | undefined {
  try {
    return app.get(KeyEncryptionKeyProvider, { strict: false });
  } catch {
    return undefined; // a service without a keyring
  }
}

/**
 * Starts a NATS microservice with its health port, and stops it gracefully on SIGTERM/SIGINT (or the service host's
 * stop request, when it runs as one of the host's threads): readiness turns red, NATS subscriptions drain (in-flight requests finish, no new ones arrive), then the process exits.
 */
export async function bootstrapService(def: ServiceDefinition): Promise<INestMicroservice> {
  nameThisService(def.name);
  const logger = createLogger(def.name);
  const { healthPort, healthHost, shutdownTimeoutMs } = validateConfig(def.name, () => readStartupConfig(def));
  // the service's name is its queue group: replicas share the requests
  const server = new CofferNatsServer({ name: def.name, logger });
  const app = await NestFactory.createMicroservice(def.module, { strategy: server, logger: new PinoNestLogger(logger), bufferLogs: false });
  app.useGlobalFilters(new RpcProblemFilter(logger));
  let shuttingDown = false;
  // ready only once its subscriptions are in place: the health server answers from the start, and a process whose
  // dependencies answer but that serves no subject yet would get requests only to have them end in "no responders"
  let listening = false;
  const checks = { ...readinessChecks(def, app), subscriptions: async () => listening };
  const health = await startHealthServer(healthPort, checks, () => shuttingDown, healthHost);
  // handlers are registered by init, and listen subscribes to them (and flushes, so the server has them)
  await app.init();
  assertHandlerCoverage(def.name, def.operations, server.getHandlers().keys(), declaredOperations());
  server.setInvoker((def.invoker ?? dispatchOperations)(app));
  await app.listen();
  listening = true;
  logger.info({ healthPort }, `${def.name} listening on NATS`);
  reportMemoryReclaim(({ beforeBytes, afterBytes, ms }) =>
    logger.debug({ rssBeforeMb: Math.round(beforeBytes / 1e6), rssAfterMb: Math.round(afterBytes / 1e6), ms: Math.round(ms) }, 'memory reclaimed'),
  );
  // what start-up left behind (a young generation grown to tens of MB, pooled pages) is given back a moment after it
  // listens; later, whenever the service is quiet after work (memory-reclaim.ts)
  reclaimMemoryAfterStart();

  const stop = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down: draining NATS subscriptions');
    const force = setTimeout(() => process.exit(1), shutdownTimeoutMs);
    force.unref();
    try {
      // no new requests, the ones held or running finish (CofferNatsServer.drainRequests), the service's own work
      // ends (def.drain), then the app closes
      await server.drainRequests();
      // a drain that fails must not keep the pools and the bus from closing
      await def.drain?.(app).catch((err: unknown) => logger.error({ err: { message: (err as Error).message } }, 'draining failed'));
      await app.close();
    } finally {
      health.close();
      // the spans of the last requests leave before the process does
      await stopTracing();
      logger.info('stopped');
      process.exit(0);
    }
  };
  onStopSignal((signal) => void stop(signal));
  return app;
}
