import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { serviceName } from '@coffer/observability';
import { poolConfig } from './pool-config';
import { ReconnectBackoff } from './reconnect-backoff';

/** The PostgreSQL notification channels Coffer's workers listen on (docs/operations.md, "What wakes the workers"). */
export const CHANNELS = {
  /** after a commit that wrote events (libs/db outbox-signal.ts): the outbox relay looks for them */
  eventOutbox: 'coffer_event_outbox',
  /** after a commit that wrote audit records (libs/db outbox-signal.ts, the operator CLI): token-service's sealer seals them */
  auditEvents: 'coffer_audit_events',
  /** a tenant was resumed (a trigger on tenants, migration 20261128000000_worker_wakeups): its queued work may run */
  tenantResumed: 'coffer_tenant_resumed',
  /** deliveries were queued for the claims outside their own wake-ups (a replica gave its deliveries back as it stopped, the operator CLI sent some again) */
  webhookDeliveries: 'coffer_webhook_deliveries',
  /**
   * the operator CLI changed who may use a tenant's keys (suspended, deleted, management key reissued); payload: the
   * tenant id. session-service tells every gateway to drop the tenant's cached keys, and every keyring drops the
   * tenant's unwrapped keys (announceTenantAccessChanged, onTenantAccessChanged)
   */
  tenantAccess: 'coffer_tenant_access',
} as const;

/**
 * LISTEN on PostgreSQL notification channels, on one connection of its own per process (opened with the first
 * `on`). A notification only says "look now": whoever is woken reads the database, which stays the source of truth.
 * Notifications sent while the connection was down are lost, so every handler is called once each time the
 * connection is (re)established; a lost connection is opened again after a pause that doubles up to 30 s. Nothing
 * runs while nothing is notified: no polling.
 */
@Injectable()
export class PgListener implements OnApplicationShutdown {
  private readonly handlers = new Map<string, Set<(payload?: string) => void>>();
  private client?: pg.Client;
  private connecting?: Promise<void>;
  private readonly reconnect = new ReconnectBackoff(() => void this.connect());
  private closed = false;

  /**
   * Calls `handler` on every notification of `channel`, with its payload, and once without one whenever the connection
   * is established (what was notified while nobody listened is lost). Resolves once this process listens on it, or
   * once the first attempt to connect failed (it keeps trying in the background).
   */
  async on(channel: string, handler: (payload?: string) => void): Promise<void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    const known = this.handlers.get(channel);
    if (known) known.add(handler);
    else this.handlers.set(channel, new Set([handler]));
    if (this.client && !known) await this.client.query(`LISTEN ${channel}`).catch(() => undefined);
    else await this.connect();
  }

  /** Whether the connection is up (readiness, tests). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.reconnect.stop();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    if (this.closed || this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({
      ...poolConfig(1),
      application_name: `${serviceName()} listen`,
      // a dead peer is noticed by the kernel's keepalive probes, without a timer here
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.reconnect.later();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (msg) => this.dispatch(msg.channel, msg.payload));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.reconnect.later();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.reconnect.connected();
    // whatever was notified while nobody listened: every handler looks once
    for (const channel of this.handlers.keys()) this.dispatch(channel);
  }

  private dispatch(channel: string, payload?: string): void {
    for (const handler of this.handlers.get(channel) ?? []) {
      try {
        handler(payload);
      } catch {
        /* a handler only wakes a loop; it must not throw */
      }
    }
  }
}
