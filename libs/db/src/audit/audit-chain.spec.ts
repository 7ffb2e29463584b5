import { GENESIS_HASH, canonicalJson, chainHash, verifyRows, type ChainedFields } from './audit-chain';
import { changedFields } from './audit-records';

function row(seq: number, over: Partial<ChainedFields> = {}): ChainedFields {
  return {
    seq,
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    tenantId: '11111111-1111-4111-8111-111111111111',
    createdAt: new Date(Date.UTC(2026, 10, 25, 12, 0, seq)),
    actorType: 'application',
    actorId: 'app',
    actorName: null,
    actorApplicationId: null,
    operation: 'update',
    entityType: 'application',
    entityId: `e${seq}`,
    traceId: null,
    source: null,
    count: 1,
    changes: { name: { old: 'a', new: 'b' } },
    ...over,
  };
}

/** A chain of n rows, hashed as the sealer hashes them. */
function chain(n: number, from = { seq: 0, hash: GENESIS_HASH }) {
  const rows: Array<ChainedFields & { hash: string }> = [];
  let prev = from.hash;
  for (let i = 1; i <= n; i++) {
    const r = row(from.seq + i);
    prev = chainHash(prev, r);
    rows.push({ ...r, hash: prev });
  }
  return rows;
}

describe('audit hash chain', () => {
  it('canonical JSON sorts keys at every depth (jsonb keeps no order) and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: undefined } })).toBe('{"a":{"d":[2,{"y":null,"z":1}]},"b":1}');
    expect(chainHash(GENESIS_HASH, row(1, { changes: { b: 1, a: 2 } }))).toBe(chainHash(GENESIS_HASH, row(1, { changes: { a: 2, b: 1 } })));
  });

  it('hashes exactly as the chains already stored were hashed (a pinned row, non-ASCII text included)', () => {
    // computed by the streaming form sha256().update(previous).update('\n').update(canonical): a change of the hash's
    // form would break the verification of every chain written before it
    const pinned = row(1, { actorName: 'Zoë «ünïcode»', entityId: 'e1', changes: { name: { old: 'a', new: 'b€' } } });
    expect(chainHash(GENESIS_HASH, pinned)).toBe('9ce2544421c11348fe9cfed7c9f3c1b81d14f332b7e4ac776ca9e486763f30b6');
  });

  it('every field is covered: changing any one changes the hash', () => {
    const base = chainHash(GENESIS_HASH, row(1));
    const variants: Array<Partial<ChainedFields>> = [
      { seq: 2 },
      { id: 'x' },
      { tenantId: 'x' },
      { createdAt: new Date(0) },
      { actorType: 'session' },
      { actorId: 'y' },
      { actorName: 'n' },
      { actorApplicationId: 'z' },
      { operation: 'delete' },
      { entityType: 'tenant' },
      { entityId: 'other' },
      { traceId: 't' },
      { source: '1.2.3.4' },
      { count: 2 },
      { changes: null },
    ];
    for (const v of variants) expect(chainHash(GENESIS_HASH, row(1, v))).not.toBe(base);
    expect(chainHash('f'.repeat(64), row(1))).not.toBe(base);
  });

  it('verifies an intact chain and continues from an anchor', () => {
    const rows = chain(5);
    expect(verifyRows('t', { seq: 0, hash: GENESIS_HASH }, rows)).toMatchObject({ ok: true, seq: 5, hash: rows[4]?.hash });
    const anchor = rows[1] as { seq: number; hash: string };
    expect(verifyRows('t', { seq: anchor.seq, hash: anchor.hash }, rows.slice(2))).toMatchObject({ ok: true, seq: 5 });
  });

  it('names the first altered row', () => {
    const rows = chain(5);
    rows[2] = { ...(rows[2] as ChainedFields & { hash: string }), entityId: 'forged' };
    expect(verifyRows('t', { seq: 0, hash: GENESIS_HASH }, rows)).toMatchObject({
      ok: false,
      break: { kind: 'altered', seq: 3, id: rows[2]?.id, previousId: rows[1]?.id },
    });
  });

  it('a row whose hash was recomputed breaks its successor', () => {
    const rows = chain(4);
    const forged = { ...(rows[1] as ChainedFields & { hash: string }), entityId: 'forged' };
    forged.hash = chainHash((rows[0] as { hash: string }).hash, forged);
    rows[1] = forged;
    expect(verifyRows('t', { seq: 0, hash: GENESIS_HASH }, rows)).toMatchObject({ ok: false, break: { kind: 'altered', seq: 3 } });
  });

  it('names a deleted row as missing, and a run of them', () => {
    const rows = chain(6);
    expect(verifyRows('t', { seq: 0, hash: GENESIS_HASH }, [...rows.slice(0, 2), ...rows.slice(3)])).toMatchObject({
      ok: false,
      break: { kind: 'missing', seq: 3, id: rows[3]?.id },
    });
    const run = verifyRows('t', { seq: 0, hash: GENESIS_HASH }, [rows[0] as never, ...rows.slice(4)]);
    expect(run).toMatchObject({ ok: false, break: { kind: 'missing', seq: 2 } });
    expect(!run.ok && run.break.detail).toContain('#2 to #4');
  });
});

describe('changedFields', () => {
  it('old and new of what differs; secrets only as redacted; nothing when nothing changed', () => {
    expect(
      changedFields({ name: 'a', permissions: ['x'], key: 'k1' }, { name: 'b', permissions: ['x'], key: 'k2' }, ['name', 'permissions', 'key'], ['key']),
    ).toEqual({
      name: { old: 'a', new: 'b' },
      key: { redacted: true },
    });
    expect(changedFields(null, { name: 'n', rules: null }, ['name', 'rules'])).toEqual({ name: { new: 'n' } });
    expect(changedFields({ a: 1 }, { a: 1 }, ['a'])).toBeUndefined();
  });
});
