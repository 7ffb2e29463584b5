import { WorkLoop } from './work-loop';

describe('WorkLoop', () => {
  it('repeats at once while there is more work, then waits until woken', async () => {
    let ticks = 0;
    const loop = new WorkLoop(
      async () => ++ticks < 3,
      60_000,
      () => undefined,
    );
    loop.start();
    await new Promise((r) => setTimeout(r, 30));
    expect(ticks).toBe(3);
    loop.wake();
    await new Promise((r) => setTimeout(r, 30));
    expect(ticks).toBe(4);
    await loop.stop();
  });

  it('does not lose a wake-up that arrives during a tick', async () => {
    let ticks = 0;
    const self: { loop?: WorkLoop } = {};
    const loop = new WorkLoop(
      async () => {
        ticks++;
        if (ticks === 1) self.loop?.wake();
        return false;
      },
      60_000,
      () => undefined,
    );
    self.loop = loop;
    loop.start();
    await new Promise((r) => setTimeout(r, 30));
    expect(ticks).toBe(2);
    await loop.stop();
  });

  it('keeps going after a failing tick', async () => {
    const errors: unknown[] = [];
    let ticks = 0;
    const loop = new WorkLoop(
      async () => {
        if (++ticks === 1) throw new Error('db down');
        return false;
      },
      10,
      (e) => errors.push(e),
    );
    loop.start();
    await new Promise((r) => setTimeout(r, 50));
    expect(errors).toHaveLength(1);
    expect(ticks).toBeGreaterThan(1);
    await loop.stop();
  });
});

describe('WorkLoop due times (issue 35: woken, not polling)', () => {
  // the loop's clock and timers are jest's: each gap is exactly what the loop asked for, however busy the machine
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());
  const sleep = (ms: number) => jest.advanceTimersByTimeAsync(ms);

  it('sleeps until the next due work a tick reported, not until the safety sweep', async () => {
    const at: number[] = [];
    const loop = new WorkLoop(
      async () => {
        at.push(Date.now());
        return at.length === 1 ? 80 : false;
      },
      60_000,
      () => undefined,
    );
    loop.start();
    await sleep(200);
    await loop.stop();
    expect(at.length).toBe(2); // the first tick and the one at its due time (and the loop's 5 ms of margin)
    expect(at[1] - at[0]).toBe(85);
  });

  it('pauses pastDueMs after due work it could not take, rather than spinning', async () => {
    let ticks = 0;
    const loop = new WorkLoop(
      async () => {
        ticks++;
        return 0;
      },
      60_000,
      () => undefined,
      { pastDueMs: 50 },
    );
    loop.start();
    await sleep(175);
    await loop.stop();
    expect(ticks).toBe(4); // at 0, 50, 100 and 150 ms
  });

  it('runs at a due time the process made known meanwhile (wakeIn), sooner than it planned', async () => {
    const at: number[] = [];
    const loop = new WorkLoop(
      async () => {
        at.push(Date.now());
        return false;
      },
      60_000,
      () => undefined,
    );
    loop.start();
    await sleep(20);
    loop.wakeIn(60);
    loop.wakeIn(5_000); // a later one does not postpone it
    await sleep(150);
    expect(at.length).toBe(2);
    expect(at[1] - at[0]).toBe(80);
    await loop.stop();
  });

  it('backs off after failures in a row, up to the safety sweep', async () => {
    const at: number[] = [];
    const loop = new WorkLoop(
      async () => {
        at.push(Date.now());
        throw new Error('database down');
      },
      120,
      () => undefined,
      { errorBackoffMs: 20 },
    );
    loop.start();
    await sleep(420);
    await loop.stop();
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    // 20, 40, 80, then the sweep's 120
    expect(gaps.slice(0, 4)).toEqual([20, 40, 80, 120]);
  });

  it('holds no timer but its one sleep while idle', async () => {
    const spy = jest.spyOn(global, 'setTimeout');
    const loop = new WorkLoop(
      async () => false,
      60_000,
      () => undefined,
    );
    loop.start();
    await sleep(50);
    const timers = spy.mock.calls.filter((c) => c[1] === 60_000).length;
    spy.mockRestore();
    expect(timers).toBe(1);
    await loop.stop();
  });
});
