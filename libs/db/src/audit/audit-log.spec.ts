import type { SqlPool } from '../sql-pool';
import { AuditLog } from './audit-log';

/** A pool whose INSERTs finish when the test says so; each query remembers how many rows it wrote. */
function fakePool() {
  const inserts: Array<{ rows: number; finish: (err?: Error) => void }> = [];
  const pool = {
    query: (sql: { values: unknown[] }) =>
      new Promise<unknown[]>((resolve, reject) => {
        inserts.push({ rows: (sql.values[0] as unknown[]).length, finish: (err) => (err ? reject(err) : resolve([])) });
      }),
  };
  return { pool: pool as unknown as SqlPool, inserts };
}

const tenant = '00000000-0000-4000-8000-000000000001';
const read = (id: string) => ({ tenantId: tenant, operation: 'read', entityType: 'token', entityId: id });
const nextIteration = () => new Promise((r) => setImmediate(r));
const settled = async (p: Promise<unknown>) => {
  let state = 'pending';
  p.then(
    () => (state = 'written'),
    () => (state = 'failed'),
  );
  await Promise.resolve();
  await Promise.resolve();
  return state;
};

describe('AuditLog outside a unit of work: group commit', () => {
  it('writes the events of one event-loop iteration in one INSERT and resolves once it committed', async () => {
    const { pool, inserts } = fakePool();
    const audit = new AuditLog(pool);
    const a = audit.append(read('a'));
    const b = audit.append(read('b'));
    await nextIteration();
    expect(inserts.map((i) => i.rows)).toEqual([2]);
    expect(await settled(a)).toBe('pending');
    inserts[0].finish();
    await expect(Promise.all([a, b])).resolves.toBeDefined();
  });

  it('does not make a later read wait for an earlier batch: its own INSERT starts beside it', async () => {
    const { pool, inserts } = fakePool();
    const audit = new AuditLog(pool);
    const first = audit.append(read('a'));
    await nextIteration();
    const second = audit.append(read('b'));
    await nextIteration();
    expect(inserts.map((i) => i.rows)).toEqual([1, 1]);
    inserts[1].finish();
    await second;
    expect(await settled(first)).toBe('pending');
    inserts[0].finish();
    await first;
  });

  it('queues only when every slot is busy, then writes all that queued in one INSERT', async () => {
    const { pool, inserts } = fakePool();
    const audit = new AuditLog(pool);
    const early: Promise<void>[] = [];
    for (let i = 0; i < 4; i++) {
      early.push(audit.append(read(`e${i}`)));
      await nextIteration();
    }
    expect(inserts).toHaveLength(4);
    const late = [audit.append(read('x')), audit.append(read('y'))];
    await nextIteration();
    const z = audit.append(read('z'));
    await nextIteration();
    expect(inserts).toHaveLength(4);
    inserts[0].finish();
    await early[0];
    await nextIteration();
    expect(inserts.map((i) => i.rows)).toEqual([1, 1, 1, 1, 3]);
    for (const i of inserts.slice(1)) i.finish();
    await Promise.all([...early, ...late, z]);
  });

  it('fails the callers of a batch that could not be written (the read then fails: no reply without its audit)', async () => {
    const { pool, inserts } = fakePool();
    const audit = new AuditLog(pool);
    const a = audit.append(read('a'));
    await nextIteration();
    inserts[0].finish(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
  });

  it('waits at shutdown for the batches still being written', async () => {
    const { pool, inserts } = fakePool();
    const audit = new AuditLog(pool);
    const a = audit.append(read('a'));
    const stopped = audit.beforeApplicationShutdown();
    await nextIteration();
    expect(await settled(stopped)).toBe('pending');
    inserts[0].finish();
    await a;
    await stopped;
  });
});
