import { noteActivity } from '@coffer/observability';

/**
 * What a tick of a {@link WorkLoop} found: `true` when more work may be waiting now (the loop runs again at once),
 * `false` when none is known (it sleeps until woken, or the safety sweep), or the milliseconds until the next work it
 * knows of is due (a retry, a lease that ends): it sleeps until then, or less when woken. 0 or less: due already but
 * not for this process now (another replica holds it, every slot is busy): it looks again after a pause.
 */
export type TickResult = boolean | number;

export interface WorkLoopOptions {
  /** after a tick found due work it could not take: how long before it looks again (default 1 000 ms) */
  pastDueMs?: number;
  /** after a failing tick: the first pause, doubled at each failure in a row up to the safety sweep (default 1 000 ms) */
  errorBackoffMs?: number;
}

/**
 * A worker loop over a PostgreSQL queue, woken by what creates its work (a NATS message, a PostgreSQL notification):
 * runs `tick` again at once while it reports more work; otherwise sleeps until woken, until the next due work the tick
 * reported, or at the latest `idleMs` — the one slow safety sweep, for whatever a lost wake-up left behind (the
 * database stays the source of truth; a wake-up only says "look now"). An idle loop holds one timer, so an idle
 * process does nothing until the sweep. A wake-up that arrives while a tick runs is not lost. A failing tick (the
 * database down) is retried after a pause that doubles up to `idleMs`.
 */
export class WorkLoop {
  private running = false;
  private woken = false;
  private failures = 0;
  private done?: Promise<void>;
  private wakeUp?: () => void;
  /** when the current sleep ends (Date.now() scale), and how to end it earlier */
  private sleepingUntil = Infinity;
  private reschedule?: (ms: number) => void;
  /** the earliest due time made known during a tick (wakeIn), for the sleep after it */
  private dueAt = Infinity;
  private readonly pastDueMs: number;
  private readonly errorBackoffMs: number;

  constructor(
    private readonly tick: () => Promise<TickResult>,
    private readonly idleMs: number,
    private readonly onError: (err: unknown) => void,
    opts: WorkLoopOptions = {},
  ) {
    this.pastDueMs = opts.pastDueMs ?? 1_000;
    this.errorBackoffMs = opts.errorBackoffMs ?? 1_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.done = this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Work this process itself scheduled becomes due in `ms` (a retry it recorded): the loop runs then at the latest,
   * without a look at the database meanwhile.
   */
  wakeIn(ms: number): void {
    const at = Date.now() + Math.max(0, ms);
    if (this.reschedule) {
      if (at < this.sleepingUntil) this.reschedule(Math.max(0, ms));
    } else this.dueAt = Math.min(this.dueAt, at);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.done;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      // work (or a look for it): the process gives memory back once it has been quiet a while (libs/observability)
      noteActivity();
      let result: TickResult = false;
      let failed = false;
      try {
        result = await this.tick();
        this.failures = 0;
      } catch (err) {
        failed = true;
        this.failures++;
        this.onError(err);
      }
      if (result === true || this.woken || !this.running) continue;
      const known = this.dueAt - Date.now();
      this.dueAt = Infinity;
      await this.sleep(Math.max(0, Math.min(this.delay(result, failed), known)));
      this.wakeUp = undefined;
      this.reschedule = undefined;
      this.sleepingUntil = Infinity;
    }
  }

  /** How long to sleep after a tick that found no more work now. */
  private delay(result: TickResult, failed: boolean): number {
    if (failed) return Math.min(this.idleMs, this.errorBackoffMs * 2 ** Math.min(this.failures - 1, 20));
    if (typeof result !== 'number' || !Number.isFinite(result)) return this.idleMs;
    // a few milliseconds past the due time: the database's clock decides when it is due
    return Math.min(this.idleMs, result <= 0 ? this.pastDueMs : Math.ceil(result) + 5);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer = setTimeout(resolve, ms);
      this.sleepingUntil = Date.now() + ms;
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
      this.reschedule = (sooner) => {
        clearTimeout(timer);
        timer = setTimeout(resolve, sooner);
        this.sleepingUntil = Date.now() + sooner;
      };
    });
  }
}
