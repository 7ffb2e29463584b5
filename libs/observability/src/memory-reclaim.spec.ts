import { noteActivity, reclaimMemoryAfterStart, reportMemoryReclaim } from './memory-reclaim';

/** The quiet-time reclaim (issue 35): once the process is quiet after work, one collection gives memory back. */
describe('memory reclaim while idle', () => {
  beforeAll(() => {
    process.env['MEMORY_RECLAIM_IDLE_MS'] = '100';
  });
  afterAll(() => {
    delete process.env['MEMORY_RECLAIM_IDLE_MS'];
  });

  it('collects once the process has been quiet after work, and not again without new growth', async () => {
    const reclaims: Array<{ beforeBytes: number; afterBytes: number; ms: number }> = [];
    reportMemoryReclaim((r) => reclaims.push(r));
    // work that leaves garbage behind: the young generation grows
    let keep: unknown[] = [];
    for (let i = 0; i < 300_000; i++) {
      keep.push({ i, s: `value ${i}`, a: [i, i + 1] });
      if (keep.length > 50_000) keep = [];
    }
    keep = [];
    noteActivity();
    await new Promise((r) => setTimeout(r, 400));
    expect(reclaims).toHaveLength(1);
    expect(reclaims[0].afterBytes).toBeLessThanOrEqual(reclaims[0].beforeBytes);
    // no timer is left behind, and a quiet spell without growth collects nothing
    noteActivity();
    await new Promise((r) => setTimeout(r, 300));
    expect(reclaims).toHaveLength(1);
    // gc stays off the global object
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('collects once shortly after start-up (reclaimMemoryAfterStart)', async () => {
    const reclaims: unknown[] = [];
    reportMemoryReclaim((r) => reclaims.push(r));
    reclaimMemoryAfterStart(50);
    expect(reclaims).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 120));
    expect(reclaims).toHaveLength(1);
  });
});
