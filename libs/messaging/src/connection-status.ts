import { Events, type NatsConnection } from 'nats';
import { createLogger, type Logger } from '@coffer/observability';

/**
 * Logs what the server tells a connection about itself: errors (a permissions violation of the per-service subject
 * permissions above all — otherwise invisible on a client connection) as warnings, disconnects and reconnects as
 * information. Only the server's message (subjects, never payloads) is logged.
 */
export function logConnectionStatus(nc: Pick<NatsConnection, 'status'>, connection: string, logger: Logger = createLogger('nats')): void {
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === Events.Error) logger.warn({ connection, error: String(s.data) }, 'nats connection error');
      else if (s.type === Events.Disconnect || s.type === Events.Reconnect)
        logger.info({ connection, event: s.type, server: String(s.data) }, 'nats connection');
    }
  })().catch(() => undefined);
}
