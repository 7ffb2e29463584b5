import { Injectable } from '@nestjs/common';
import pg from 'pg';
import { ReconnectBackoff, poolConfig } from '@coffer/db';

const LOCK = `SELECT pg_advisory_lock(hashtext('coffer.event_outbox'))`;

/**
 * Which replica relays the outbox: the one holding a session-level advisory lock on a connection of its own. The
 * relay remembers in memory which events' deliveries it has handed off (their outbox rows stay until recorded), so
 * one process must relay for as long as it remembers; a transaction-scoped lock per batch would let replicas take
 * turns and deliver those events twice. The lock ends with its session: a leader that dies or loses its connection
 * gives way within the connection's timeout, and its successor relays every event still in the outbox (at least
 * once, with the same delivery ids). A process that shuts down gives the lock up only once its deliveries under way
 * are recorded ({@link OutboxRelay}), so its successor does not send them again.
 *
 * A follower waits for the lock inside PostgreSQL (`pg_advisory_lock`, no statement or lock timeout on that
 * session): it is granted the moment the leader's session ends, with nothing polled meanwhile. A lost connection is
 * opened again after a pause that doubles up to 30 s, and contends again.
 */
@Injectable()
export class RelayLeadership {
  private client?: pg.Client;
  private contending = false;
  private leading = false;
  private closed = false;
  private readonly reconnect = new ReconnectBackoff(() => void this.contend());
  private onLead: () => void = () => undefined;

  /** Whether this process relays now. */
  get held(): boolean {
    return this.leading && !this.closed;
  }

  /** Starts contending for the lock; `onLead` runs each time this process becomes the relay (again). */
  start(onLead: () => void): void {
    this.onLead = onLead;
    void this.contend();
  }

  private async contend(): Promise<void> {
    if (this.closed || this.contending) return;
    this.contending = true;
    const client = new pg.Client({
      ...poolConfig(1),
      application_name: 'webhook-dispatcher relay',
      // a peer gone without a word is noticed by the kernel's keepalive probes
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.leading = false;
      this.contending = false;
      this.reconnect.later();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      this.client = client;
      await client.connect();
      if (this.closed) throw new Error('closed');
      this.reconnect.connected();
      // the follower's wait for the lock is one statement that lasts as long as the leader lives. While a statement
      // runs, PostgreSQL does not read the socket: without client_connection_check_interval (PostgreSQL 14+) a
      // follower that was released or died left its backend waiting in the lock's queue, holding a connection, until
      // the leader let go (relay-leadership.int.spec.ts); with it, the backend notices the closed connection within 1 s.
      await client.query('SET statement_timeout = 0; SET lock_timeout = 0; SET client_connection_check_interval = 1000');
      await client.query(LOCK);
    } catch {
      if (this.client === client) {
        this.client = undefined;
        this.contending = false;
        this.reconnect.later();
      }
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      return;
    }
    if (this.client !== client || this.closed) return;
    this.leading = true;
    this.onLead();
  }

  /** Gives the lock up for good (the process is shutting down); a follower stops waiting for it. */
  async release(): Promise<void> {
    this.closed = true;
    this.reconnect.stop();
    const client = this.client;
    this.client = undefined;
    this.leading = false;
    await client?.end().catch(() => undefined);
  }
}
