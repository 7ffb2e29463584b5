/** Counts RPC requests still running (CofferNatsServer), so a shutdown can wait for them after it stops taking new ones. */
export class InFlightRequests {
  private count = 0;
  private waiters: Array<() => void> = [];

  start(): void {
    this.count++;
  }

  end(): void {
    this.count--;
    if (this.count === 0) for (const w of this.waiters.splice(0)) w();
  }

  get active(): number {
    return this.count;
  }

  idle(maxWaitMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, maxWaitMs);
      t.unref();
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /**
   * Waits until no handler has run for `quietMs` (a message can be between the subscription and its handler
   * when a single zero is read), or `maxWaitMs` passed.
   */
  async settle(quietMs: number, maxWaitMs: number): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    let quietSince = this.count === 0 ? Date.now() : Infinity;
    while (Date.now() < deadline) {
      if (this.count > 0) {
        await this.idle(Math.max(0, deadline - Date.now()));
        quietSince = Date.now();
      } else if (Date.now() - quietSince >= quietMs) return;
      else if (quietSince === Infinity) quietSince = Date.now();
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
