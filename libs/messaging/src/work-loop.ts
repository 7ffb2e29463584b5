/**
 * A worker loop over a PostgreSQL queue: runs `tick` again at once while it reports more work, otherwise waits
 * `idleMs` or until woken (NATS wake-ups only shorten the wait; the database stays the source of truth).
 * A wake-up that arrives while a tick runs is not lost.
 */
export class WorkLoop {
  private running = false;
  private woken = false;
  private done?: Promise<void>;
  private wakeUp?: () => void;

  constructor(
    private readonly tick: () => Promise<boolean>,
    private readonly idleMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.done = this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.done;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let more = false;
      try {
        more = await this.tick();
      } catch (err) {
        this.onError(err);
      }
      if (more || this.woken || !this.running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.idleMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }
}
