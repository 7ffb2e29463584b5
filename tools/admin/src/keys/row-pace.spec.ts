import { RowPace } from './row-pace';

/** A clock the test moves by hand; `sleep` records how long the pace asked to wait and moves the clock by it. */
function fakeClock() {
  const clock = { now: 1_000_000, slept: 0 };
  const pace = (rate: number) =>
    new RowPace(rate, {
      now: () => clock.now,
      sleep: async (ms) => {
        clock.slept += ms;
        clock.now += ms;
      },
    });
  return { clock, pace };
}

describe('RowPace: keeps the rows a job writes at or under its rate', () => {
  it('spaces batches so that the rows per second match the rate', async () => {
    const { clock, pace } = fakeClock();
    const p = pace(100);
    const start = clock.now;
    for (let i = 0; i < 40; i++) await p.wrote(25);
    // 1000 rows at 100/s: 10 s, less the one second of credit a start may use
    expect(clock.now - start).toBeGreaterThanOrEqual(9_000);
    expect(clock.now - start).toBeLessThanOrEqual(10_000);
  });

  it('does not turn a slow start or a long wait into a burst: at most one second of rows goes unpaced', async () => {
    const { clock, pace } = fakeClock();
    const p = pace(100);
    clock.now += 30_000; // the job counted and registered its rows for 30 s before its first batch
    const start = clock.now;
    let unpaced = 0;
    for (let i = 0; i < 20 && clock.slept === 0; i++) {
      await p.wrote(25);
      if (clock.slept === 0) unpaced += 25;
    }
    expect(unpaced).toBeLessThanOrEqual(100);
    clock.slept = 0;
    clock.now += 60_000; // waited for a rotation to settle between two kinds
    unpaced = 0;
    for (let i = 0; i < 20 && clock.slept === 0; i++) {
      await p.wrote(25);
      if (clock.slept === 0) unpaced += 25;
    }
    expect(unpaced).toBeLessThanOrEqual(100);
    expect(clock.now).toBeGreaterThan(start);
  });

  it('never waits when the rate is 0 (no limit)', async () => {
    const { clock, pace } = fakeClock();
    const p = pace(0);
    for (let i = 0; i < 100; i++) await p.wrote(1000);
    expect(clock.slept).toBe(0);
  });
});
