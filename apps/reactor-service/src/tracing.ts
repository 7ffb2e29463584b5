// The first import of main.ts: OpenTelemetry must patch http, pg, fastify and undici before anything loads them.
import { startTracing } from '@coffer/observability/tracing';

startTracing('reactor-service');
