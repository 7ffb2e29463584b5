import { GroupCommitQueue, upTo } from './group-commit-queue';

const turn = () => new Promise<void>((r) => setImmediate(r));

/** A queue whose batches stay open until the test ends them: what it ran, in order. */
function recording(maxInFlight: number, take = upTo<number>(3)) {
  const batches: number[][] = [];
  const open: Array<() => void> = [];
  const queue = new GroupCommitQueue<number>({
    maxInFlight,
    take,
    run: (batch) => {
      batches.push(batch);
      return new Promise<void>((resolve) => open.push(resolve));
    },
  });
  const endOldest = async () => {
    open.shift()?.();
    await turn();
  };
  return { queue, batches, open, endOldest };
}

describe('GroupCommitQueue', () => {
  it('takes what was added during one event-loop iteration at its end, in batches of take’s size', async () => {
    const { queue, batches } = recording(Infinity);
    for (let i = 1; i <= 7; i++) queue.add(i);
    expect(batches).toEqual([]);
    await turn();
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('writes at most maxInFlight batches at once; what arrives meanwhile forms the next, larger batch', async () => {
    const { queue, batches, endOldest } = recording(1, upTo(10));
    queue.add(1);
    await turn();
    for (let i = 2; i <= 5; i++) queue.add(i);
    await turn();
    expect(batches).toEqual([[1]]);
    await endOldest();
    expect(batches).toEqual([[1], [2, 3, 4, 5]]);
  });

  it('leaves for the next batch what take leaves in the queue (two creates of one key never share a statement)', async () => {
    const distinct = (queue: number[]) => {
      const batch: number[] = [];
      const rest: number[] = [];
      for (const n of queue) (batch.includes(n) ? rest : batch).push(n);
      return { batch, rest };
    };
    const { queue, batches, endOldest } = recording(1, distinct);
    for (const n of [1, 2, 1, 3, 1]) queue.add(n);
    await turn();
    expect(batches).toEqual([[1, 2, 3]]);
    await endOldest();
    expect(batches).toEqual([[1, 2, 3], [1]]);
    await endOldest();
    expect(batches).toEqual([[1, 2, 3], [1], [1]]);
  });

  it('is drained once nothing is queued or being written', async () => {
    const { queue, endOldest } = recording(1);
    await expect(queue.drained()).resolves.toBeUndefined();
    queue.add(1);
    queue.add(2);
    let drained = false;
    void queue.drained().then(() => (drained = true));
    await turn();
    expect(drained).toBe(false);
    await endOldest();
    expect(drained).toBe(true);
  });
});
