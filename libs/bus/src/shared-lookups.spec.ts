import { SharedLookups } from './shared-lookups';

/** A lookup that answers when told to, counting how often it was started. */
function held<V>() {
  const started: string[] = [];
  const pending: Array<{ key: string; answer: (v: V) => void; fail: (e: unknown) => void }> = [];
  const look = (key: string) => () =>
    new Promise<V>((answer, fail) => {
      started.push(key);
      pending.push({ key, answer, fail });
    });
  return { started, pending, look };
}

describe('SharedLookups', () => {
  it('shares one lookup per key between those who ask while it is under way, and keeps its answer once', async () => {
    const lookups = new SharedLookups<string>();
    const h = held<string>();
    const kept: string[] = [];
    const keep = (v: string) => kept.push(v);
    const a = lookups.ask('k1', 't1', h.look('k1'), keep);
    const b = lookups.ask('k1', 't1', h.look('k1'), keep);
    const c = lookups.ask('k2', 't1', h.look('k2'), keep);
    expect(lookups.size).toBe(2);
    expect(lookups.underway('k1')).toBe(a);
    h.pending[0].answer('one');
    h.pending[1].answer('two');
    expect(await Promise.all([a, b, c])).toEqual(['one', 'one', 'two']);
    expect(h.started).toEqual(['k1', 'k2']);
    expect(kept).toEqual(['one', 'two']);
    expect(lookups.size).toBe(0);
    expect(lookups.underway('k1')).toBeUndefined();
  });

  it('shares a failure with those waiting, keeps nothing of it, and asks again next time', async () => {
    const lookups = new SharedLookups<string>();
    const h = held<string>();
    const kept: string[] = [];
    const a = lookups.ask('k', 't', h.look('k'), (v) => kept.push(v));
    const b = lookups.ask('k', 't', h.look('k'), (v) => kept.push(v));
    h.pending[0].fail(new Error('session-service is down'));
    await expect(a).rejects.toThrow('session-service is down');
    await expect(b).rejects.toThrow('session-service is down');
    expect([lookups.size, lookups.running]).toEqual([0, 0]);
    // a lookup that throws before its first await is unfiled too
    await expect(
      lookups.ask(
        'k',
        't',
        () => {
          throw new Error('at once');
        },
        (v) => kept.push(v),
      ),
    ).rejects.toThrow('at once');
    expect([lookups.size, lookups.running]).toEqual([0, 0]);
    expect(kept).toEqual([]);
  });

  it("detaches a tenant's lookups on a change: later askers start anew, the detached answer serves its callers and is not kept", async () => {
    const lookups = new SharedLookups<string>();
    const h = held<string>();
    const kept: string[] = [];
    const keep = (v: string) => kept.push(v);
    const before = lookups.ask('k1', 't1', h.look('k1'), keep);
    const other = lookups.ask('k2', 't2', h.look('k2'), keep);
    lookups.forgetTenant('t1');
    expect(lookups.underway('k1')).toBeUndefined();
    expect(lookups.underway('k2')).toBe(other); // another tenant's change costs t2 nothing
    // the detached lookup still runs: it is not shared any more, but it is counted until it ends
    expect([lookups.size, lookups.running]).toEqual([1, 2]);
    const after = lookups.ask('k1', 't1', h.look('k1'), keep);
    expect(h.started).toEqual(['k1', 'k2', 'k1']);
    expect([lookups.size, lookups.running]).toEqual([2, 3]);
    // the new lookup answers first; the old one, read before the change, answers last and must not replace it
    h.pending[2].answer('new');
    h.pending[1].answer('t2');
    expect(await after).toBe('new');
    h.pending[0].answer('old');
    expect(await before).toBe('old');
    expect(await other).toBe('t2');
    expect(kept).toEqual(['new', 't2']);
    expect([lookups.size, lookups.running]).toEqual([0, 0]);
  });

  it('detaches on any change a lookup that does not know its tenant yet, and on its own once it learns it', async () => {
    const lookups = new SharedLookups<string>();
    const kept: string[] = [];
    let learn: (tenantId: string) => void = () => undefined;
    let answer: (v: string) => void = () => undefined;
    const look = (l: (tenantId: string) => void) =>
      new Promise<string>((r) => {
        learn = l;
        answer = r;
      });
    const unknown = lookups.ask('k', undefined, look, (v) => kept.push(v));
    lookups.forgetTenant('t9');
    expect(lookups.underway('k')).toBeUndefined();
    answer('x');
    expect(await unknown).toBe('x');
    expect(kept).toEqual([]);
    const learned = lookups.ask('k', undefined, look, (v) => kept.push(v));
    learn('t1');
    lookups.forgetTenant('t2');
    expect(lookups.underway('k')).toBe(learned);
    lookups.forgetTenant('t1');
    expect(lookups.underway('k')).toBeUndefined();
    answer('y');
    expect(await learned).toBe('y');
    expect(kept).toEqual([]);
  });

  it('detaches every lookup under way on forgetAll, whatever tenant it knows, and still counts them until they end', async () => {
    const lookups = new SharedLookups<string>();
    const h = held<string>();
    const kept: string[] = [];
    const keep = (v: string) => kept.push(v);
    const known = lookups.ask('k1', 't1', h.look('k1'), keep);
    const unknown = lookups.ask('k2', undefined, h.look('k2'), keep);
    lookups.forgetAll();
    expect([lookups.size, lookups.running]).toEqual([0, 2]);
    const again = lookups.ask('k1', 't1', h.look('k1'), keep);
    expect(again).not.toBe(known);
    h.pending.forEach((p, i) => p.answer(`v${i}`));
    expect(await Promise.all([known, unknown, again])).toEqual(['v0', 'v1', 'v2']);
    expect(kept).toEqual(['v2']);
    expect(lookups.running).toBe(0);
  });
});
