import { RETENTION_BATCH, RetentionPruner, type RetentionPolicy } from './retention-pruner';

const POLICY: RetentionPolicy = { service: 'test', rows: 'old rows', intervalMs: 60_000, retentionDays: 30 };

class FakePruner extends RetentionPruner {
  override readonly logger = { info: jest.fn(), error: jest.fn() } as unknown as RetentionPruner['logger'];
  readonly calls: Array<[number, number]> = [];
  readonly after: number[] = [];

  constructor(private readonly batches: Array<number | Error>) {
    super(POLICY);
  }

  protected async deleteBatch(retentionDays: number, limit: number): Promise<number> {
    this.calls.push([retentionDays, limit]);
    const next = this.batches.shift() ?? 0;
    if (next instanceof Error) throw next;
    return next;
  }

  protected override async afterBatches(retentionDays: number): Promise<void> {
    this.after.push(retentionDays);
  }
}

describe('RetentionPruner', () => {
  it('deletes in batches until one comes back short, then runs afterBatches and logs the count', async () => {
    const pruner = new FakePruner([RETENTION_BATCH, RETENTION_BATCH, 7]);
    await expect(pruner.prune(5)).resolves.toBe(2 * RETENTION_BATCH + 7);
    expect(pruner.calls).toEqual([
      [5, RETENTION_BATCH],
      [5, RETENTION_BATCH],
      [5, RETENTION_BATCH],
    ]);
    expect(pruner.after).toEqual([5]);
    expect(pruner.logger.info).toHaveBeenCalledWith({ rows: 2 * RETENTION_BATCH + 7, retentionDays: 5 }, 'pruned old rows past retention');
  });

  it("uses the policy's retention by default and logs nothing when nothing was due", async () => {
    const pruner = new FakePruner([0]);
    await expect(pruner.prune()).resolves.toBe(0);
    expect(pruner.calls).toEqual([[30, RETENTION_BATCH]]);
    expect(pruner.logger.info).not.toHaveBeenCalled();
  });

  it('logs a failure and returns what it pruned before it', async () => {
    const pruner = new FakePruner([RETENTION_BATCH, new Error('connection lost')]);
    await expect(pruner.prune()).resolves.toBe(RETENTION_BATCH);
    expect(pruner.logger.error).toHaveBeenCalledWith({ err: { message: 'connection lost' } }, 'pruning old rows failed; retried at the next interval');
    expect(pruner.after).toEqual([]);
  });

  it('does nothing after shutdown', async () => {
    const pruner = new FakePruner([RETENTION_BATCH]);
    pruner.onApplicationShutdown();
    await expect(pruner.prune()).resolves.toBe(0);
    expect(pruner.calls).toEqual([]);
    expect(pruner.after).toEqual([]);
  });
});
