import { periodicWork } from './periodic-work';

describe('periodicWork', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs every interval, skips a tick while a run is still going, hands failures on, and stops', async () => {
    let runs = 0;
    let finish: () => void = () => undefined;
    const errors: string[] = [];
    const job = periodicWork(
      'test-sweep',
      1_000,
      () => {
        runs++;
        if (runs === 2) return Promise.reject(new Error('database down'));
        return runs === 3 ? new Promise<void>((r) => (finish = r)) : Promise.resolve();
      },
      (err) => errors.push(err.message),
    );
    job.start();
    expect(runs).toBe(0); // nothing at start: the first run is one interval away
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(errors).toEqual(['database down']);
    await jest.advanceTimersByTimeAsync(1_000); // the third run starts and does not end
    await jest.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(3); // three ticks skipped, not piled up
    finish();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(4);
    job.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(4);
  });
});
