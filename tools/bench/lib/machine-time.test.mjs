import assert from 'node:assert/strict';
import { test } from 'node:test';
import { machineBusySeconds, machineShares, machineTime } from './machine-time.mjs';

test('reads the whole machine CPU time from /proc/stat (busy, iowait, steal and all of it)', { skip: process.platform !== 'linux' }, () => {
  const t = machineTime();
  assert.ok(t);
  for (const k of ['busy', 'iowait', 'steal', 'total']) assert.ok(Number.isFinite(t[k]) && t[k] >= 0, k);
  assert.ok(t.total >= t.busy + t.iowait + t.steal);
  assert.ok(machineBusySeconds() > 0);
});

test('shares between two readings are percent of the time that passed; none without two readings that moved', () => {
  const before = { busy: 1000, iowait: 100, steal: 0, total: 5000 };
  const after = { busy: 1600, iowait: 500, steal: 20, total: 6000 };
  assert.deepEqual(machineShares(before, after), { busy_pct: 60, iowait_pct: 40, steal_pct: 2 });
  assert.equal(machineShares(null, after), null);
  assert.equal(machineShares(before, before), null);
});
