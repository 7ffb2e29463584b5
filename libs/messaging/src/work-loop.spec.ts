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
