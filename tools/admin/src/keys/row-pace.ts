export interface PaceClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: PaceClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** Idle time a job may make up for: a slow start or a wait between kinds must not become a burst on the database. */
const MAX_CREDIT_MS = 1000;

/** Keeps the rows a job writes at or under `rate` per second (0: no limit). */
export class RowPace {
  /** when the rows written so far would have finished at exactly `rate` */
  private paced = -Infinity;

  constructor(
    private readonly rate: number,
    private readonly clock: PaceClock = systemClock,
  ) {}

  async wrote(rows: number): Promise<void> {
    if (this.rate <= 0) return;
    const now = this.clock.now();
    this.paced = Math.max(this.paced, now - MAX_CREDIT_MS) + (rows / this.rate) * 1000;
    if (this.paced > now) await this.clock.sleep(this.paced - now);
  }
}
