/**
 * The queue behind the group commits: token-service's creates (TokenInserts) and reads by id (TokenReads), and the
 * audit records written outside a unit of work (AuditLog). What callers add during one event-loop iteration is taken at its end (setImmediate), in batches
 * of `take`'s choosing; at most `maxInFlight` batches are written at once, and what arrives meanwhile waits to form
 * the next, larger one: the fewer commits PostgreSQL makes, the more of its CPU and WAL flushes go to rows. Under
 * load a third of token-service's CPU went to the write(2) of each statement (issue 14's profiles).
 *
 * `run` writes a batch and settles every caller in it (their promises are its business); it must not reject.
 */
export class GroupCommitQueue<T> {
  private queue: T[] = [];
  private scheduled = false;
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly options: {
      /** batches being written at once (Infinity: each batch starts as soon as it is taken) */
      maxInFlight: number;
      /** the next batch, from the front of `queue`: what it leaves in `queue` waits for the next one */
      take: (queue: T[]) => { batch: T[]; rest: T[] };
      run: (batch: T[]) => Promise<void>;
    },
  ) {}

  add(item: T): void {
    this.queue.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.scheduledPump);
  }

  /** Resolves once nothing is queued or being written (a shutdown waits for it). */
  drained(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private get idle(): boolean {
    return !this.running && !this.queue.length && !this.scheduled;
  }

  private readonly scheduledPump = (): void => {
    this.scheduled = false;
    this.pump();
  };

  /** Starts a batch in every free slot. */
  private pump(): void {
    while (this.queue.length && this.running < this.options.maxInFlight) {
      const { batch, rest } = this.options.take(this.queue);
      this.queue = rest;
      this.running++;
      void this.options.run(batch).finally(() => {
        this.running--;
        this.pump();
        if (this.idle) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
    }
  }
}

/** `take` for batches of at most `max` items, oldest first. */
export const upTo =
  <T>(max: number) =>
  (queue: T[]): { batch: T[]; rest: T[] } => ({ batch: queue.slice(0, max), rest: queue.slice(max) });
