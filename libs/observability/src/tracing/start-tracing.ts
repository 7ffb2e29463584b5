// The SDK is required here, only when tracing is on, and before the modules it instruments: a static import would cost
// every installation that does not trace its memory and start-up time.
import type { IncomingMessage, ClientRequest } from 'node:http';
import { validateConfig } from '../config';
import { markTracingStarted } from './trace-context';
import { tracingConfig } from './tracing-config';
import { isHealthPath, redactQuery } from './span-redaction';

let shutdown: (() => Promise<void>) | undefined;

/**
 * Starts OpenTelemetry tracing for `service` when the OTEL_* variables ask for it (docs/tracing.md). Must run before
 * the modules it instruments are loaded (http, pg, fastify, undici): each service's `main.ts` imports its
 * `tracing.ts` first. Exporters, protocol, sampler and batching follow the standard variables; Coffer adds the
 * redaction of query strings and leaves probes untraced. Metrics and logs stay where they are (Prometheus, stdout).
 */
export function startTracing(service: string): void {
  const config = validateConfig(service, () => tracingConfig(service));
  if (!config.enabled) return;
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => isHealthPath(req.url),
        requestHook: (span, req) => {
          if ('socket' in req && (req as IncomingMessage).headers) {
            const incoming = req as IncomingMessage;
            redactQuery(span, incoming.url, `http://${incoming.headers.host ?? 'localhost'}${incoming.url ?? ''}`);
          } else {
            const outgoing = req as ClientRequest;
            redactQuery(span, outgoing.path, `${outgoing.protocol}//${outgoing.host}${outgoing.path}`);
          }
        },
      }),
      new UndiciInstrumentation({
        requestHook: (span, req) => redactQuery(span, req.path, `${req.origin}${req.path}`),
      }),
      // statements only, never their parameters; no spans for pool housekeeping outside a traced operation
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false, ignoreConnectSpans: true }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
        ignorePaths: (route: { url?: string }) => isHealthPath(route.url),
        requestHook: (span, request) => redactQuery(span, request.url),
      }),
    ],
  });
  sdk.start();
  markTracingStarted();
  shutdown = () => sdk.shutdown();
}

/** Exports the spans still buffered; called by the shutdown of each service (a no-op when tracing is off). */
export async function stopTracing(): Promise<void> {
  await shutdown?.().catch(() => undefined);
  shutdown = undefined;
}
