import { Injectable } from '@nestjs/common';
import pg from 'pg';
import { poolConfig } from '@coffer/db';

/**
 * Which replica relays the outbox: the one holding a session-level advisory lock on a connection of its own. The
 * relay remembers in memory which events' deliveries it has handed off (their outbox rows stay until recorded), so
 * one process must relay for as long as it remembers; a transaction-scoped lock per batch would let replicas take
 * turns and deliver those events twice. The lock ends with its session: a leader that dies or loses its connection
 * gives way within the connection's timeout, and its successor relays every event still in the outbox (at least
 * once, with the same delivery ids). A process that shuts down gives the lock up only once its deliveries under way
 * are recorded ({@link OutboxRelay}), so its successor does not send them again.
 */
@Injectable()
export class RelayLeadership {
  private client?: pg.Client;
  private connecting?: Promise<pg.Client>;
  private leading = false;
  private closed = false;

  /** Whether this process relays; tries to take the lock when it does not. */
  async held(): Promise<boolean> {
    if (this.closed) return false;
    if (this.leading) return true;
    const client = await this.connection();
    const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext('coffer.event_outbox')) AS locked`);
    this.leading = rows[0].locked && this.client === client;
    return this.leading;
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ ...poolConfig(1), application_name: 'webhook-dispatcher relay' });
      const lost = () => {
        if (this.client !== client) return;
        this.client = undefined;
        this.leading = false;
      };
      client.on('error', lost);
      client.on('end', lost);
      try {
        await client.connect();
      } catch (err) {
        client.removeAllListeners();
        throw err;
      }
      this.client = client;
      return client;
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Gives the lock up for good (the process is shutting down). */
  async release(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    this.leading = false;
    await client?.end().catch(() => undefined);
  }
}
