import { Events, type NatsConnection } from 'nats';
import { Counter } from 'prom-client';
import { createLogger, metricsRegistry, type Logger } from '@coffer/observability';

/** by connection name (`<service>-rpc`, `<service>-events`, the service's own): a handful per process */
export const natsDisconnects = new Counter({
  name: 'coffer_nats_disconnects_total',
  help: 'Times a NATS connection of this process lost its server (it reconnects by itself)',
  labelNames: ['connection'] as const,
  registers: [metricsRegistry],
});

/**
 * Logs what the server tells a connection about itself: errors (a permissions violation of the per-service subject
 * permissions above all — otherwise invisible on a client connection) as warnings, disconnects and reconnects as
 * information, and counts the disconnects (coffer_nats_disconnects_total). Only the server's message (subjects, never
 * payloads) is logged.
 */
export function logConnectionStatus(nc: Pick<NatsConnection, 'status'>, connection: string, logger: Logger = createLogger('nats')): void {
  // from 0, so that increase() sees the first disconnect
  natsDisconnects.inc({ connection }, 0);
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === Events.Error) logger.warn({ connection, error: String(s.data) }, 'nats connection error');
      else if (s.type === Events.Disconnect || s.type === Events.Reconnect) {
        if (s.type === Events.Disconnect) natsDisconnects.inc({ connection });
        logger.info({ connection, event: s.type, server: String(s.data) }, 'nats connection');
      }
    }
  })().catch(() => undefined);
}
