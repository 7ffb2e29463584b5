import { deferUntilCommitted } from './after-commit';

/**
 * Wakes a worker after rows it works on were written: once the transaction that wrote them committed, a `NOTIFY` on
 * the worker's channel (libs/db pg-listener.ts CHANNELS) from a connection of the process's SqlPool, at most one per
 * COALESCE_MS per process (a burst of writes sends one at its start and one at its end). The worker LISTENs and reads
 * its table when notified; without a notification it sweeps only at its safety interval. Two signals: the outbox
 * relay's (events written, webhook-dispatcher) and the audit sealer's (audit records written, token-service, which
 * handles the signal in-process instead of notifying itself).
 *
 * Not a NOTIFY inside the writing transaction (a trigger, say): PostgreSQL serializes the commits of every
 * transaction that notifies on one cluster-wide lock, held across the commit's WAL flush, which cut concurrent
 * single-row inserts from ~3 400–5 100 to ~890 a second on the development machine (32 clients) — every token create
 * writes an event. Sent after the commit, in a transaction of its own, it serializes only the notifications: 20 a
 * second per process and channel at most.
 */
const COALESCE_MS = 50;

/** What the text of a statement that writes events contains (outboxInsert's fragment). */
export const OUTBOX_INSERT_TEXT = 'INSERT INTO event_outbox ';

type Send = (sql: string) => Promise<unknown>;

export class CommitSignal {
  private send?: Send;
  private local?: () => void;
  private inFlight = false;
  private again = false;
  private readonly sql: string;

  constructor(readonly channel: string) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    this.sql = `SELECT pg_notify('${channel}', '')`;
  }

  /** The connection pool notifications are sent on (SqlPool's); `unbind` with the same function when it closes. */
  bind(send: Send): void {
    this.send = send;
  }

  unbind(send: Send): void {
    if (this.send === send) this.send = undefined;
  }

  /** In the process that does the work itself: `wake` runs instead of a notification (undefined: notify again). */
  handleLocally(wake: (() => void) | undefined): void {
    this.local = wake;
  }

  /** Once the current unit of work commits (at once outside one: the statement that wrote the rows has returned). */
  afterCommit(): void {
    if (!deferUntilCommitted(() => this.written())) this.written();
  }

  /** Rows were committed (or are about to be: the statement that wrote them has returned). */
  written(): void {
    if (this.local) return this.local();
    const send = this.send;
    if (!send) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    this.again = false;
    void send(this.sql)
      .catch(() => undefined) // the worker's safety sweep finds what a lost notification leaves
      .finally(() => {
        setTimeout(() => {
          this.inFlight = false;
          if (this.again) this.written();
        }, COALESCE_MS).unref();
      });
  }
}

/** The outbox relay's signal (SqlPool binds it; outboxInsert and SqlPool.query raise it). */
export const outboxSignal = new CommitSignal('coffer_event_outbox');
/** The audit sealer's signal (SqlPool binds it; AuditLog raises it). */
export const auditSignal = new CommitSignal('coffer_audit_events');
