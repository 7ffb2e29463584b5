import { FairQueue, type FairLimits } from './fair-queue';

interface Job {
  tenant: string;
  receiver: string;
  n: number;
}

/** A queue whose attempts end when the test says so; records the order they started in. */
function harness(limits: FairLimits, admit: (receiver: string, running: number) => 'run' | 'wait' | 'defer' = () => 'run') {
  const started: Job[] = [];
  const deferred: Job[] = [];
  const finish = new Map<Job, () => void>();
  const q = new FairQueue<Job>(
    limits,
    admit,
    (job) => {
      started.push(job);
      return new Promise<void>((r) => finish.set(job, r));
    },
    (jobs) => deferred.push(...jobs),
  );
  const push = (tenant: string, receiver: string, count: number, leased = false) => {
    for (let n = 0; n < count; n++) q.push(tenant, receiver, { tenant, receiver, n }, leased);
  };
  const end = async (job: Job) => {
    finish.get(job)?.();
    await new Promise((r) => setImmediate(r));
  };
  return { q, started, deferred, push, end };
}

describe('FairQueue', () => {
  it("a tenant with a backlog holds at most its share: another tenant's attempt starts at once", () => {
    const h = harness({ total: 8, perTenant: 3, perReceiver: 2 });
    h.push('A', 'A1', 50);
    h.push('A', 'A2', 50);
    expect(h.started.map((j) => j.receiver)).toEqual(['A1', 'A1', 'A2']);
    h.push('B', 'B1', 1);
    expect(h.started.at(-1)).toMatchObject({ tenant: 'B' });
    expect(h.q.saturated()).toEqual(['A']);
    expect(h.q.loadOf('A')).toBe(100);
  });

  it('takes tenants round robin when the slots are scarce', async () => {
    const h = harness({ total: 2, perTenant: 2, perReceiver: 2 });
    h.push('A', 'a', 4);
    h.push('B', 'b', 4);
    h.push('C', 'c', 4);
    expect(h.started.map((j) => j.tenant)).toEqual(['A', 'A']);
    await h.end(h.started[0]);
    await h.end(h.started[1]);
    await h.end(h.started[2]);
    await h.end(h.started[3]);
    expect(h.started.map((j) => j.tenant)).toEqual(['A', 'A', 'B', 'C', 'A', 'B']);
  });

  it('serves claimed (leased) deliveries of a receiver before fresh ones', () => {
    const h = harness({ total: 1, perTenant: 1, perReceiver: 1 });
    h.push('A', 'a', 1);
    h.push('A', 'a', 2);
    h.push('A', 'a', 1, true);
    expect(h.started).toEqual([{ tenant: 'A', receiver: 'a', n: 0 }]);
    void h.end(h.started[0]);
    return new Promise<void>((r) => setImmediate(r)).then(() => expect(h.started[1]).toEqual({ tenant: 'A', receiver: 'a', n: 0 }));
  });

  it("defers everything an open receiver has queued, and keeps a half-open receiver's queue until its probe ends", async () => {
    let verdict: 'run' | 'wait' | 'defer' = 'defer';
    const h = harness({ total: 10, perTenant: 10, perReceiver: 10 }, (receiver, running) => (receiver === 'bad' ? (running ? 'wait' : verdict) : 'run'));
    h.push('A', 'bad', 5);
    h.push('A', 'good', 1);
    expect(h.deferred).toHaveLength(5);
    expect(h.started.map((j) => j.receiver)).toEqual(['good']);
    verdict = 'run';
    h.push('A', 'bad', 3);
    expect(h.started.map((j) => j.receiver)).toEqual(['good', 'bad']);
    await h.end(h.started[1]);
    expect(h.started.map((j) => j.receiver)).toEqual(['good', 'bad', 'bad']);
  });

  it('stop hands back what waits; idle resolves when the running attempts end', async () => {
    const h = harness({ total: 2, perTenant: 2, perReceiver: 2 });
    h.push('A', 'a', 5);
    expect(h.q.stop()).toHaveLength(3);
    let idle = false;
    void h.q.idle().then(() => (idle = true));
    await h.end(h.started[0]);
    expect(idle).toBe(false);
    await h.end(h.started[1]);
    expect(idle).toBe(true);
    expect(h.q.load).toBe(0);
  });
});
