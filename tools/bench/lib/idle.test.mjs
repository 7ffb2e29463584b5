import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clockTicks } from './cpu.mjs';
import { idleTable, measureIdle, parseProcStat, parseRss, programLabel, summariseIdle, treeMembers } from './idle.mjs';

test('parseProcStat reads pid, ppid, CPU and start time past a command name with spaces and parentheses', () => {
  const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
  fields[0] = 'S';
  fields[1] = '77'; // ppid (field 4)
  fields[11] = '150'; // utime
  fields[12] = '50'; // stime
  fields[19] = '123456'; // starttime (field 22)
  const p = parseProcStat(`1234 (node (x) y) ${fields.join(' ')}`);
  assert.equal(p.pid, 1234);
  assert.equal(p.comm, 'node (x) y');
  assert.equal(p.ppid, 77);
  assert.ok(Math.abs(p.cpu * clockTicks() - 200) < 1e-9);
  assert.equal(p.start, 123456);
  assert.equal(parseRss('Name:\tnode\nVmRSS:\t   2048 kB\n'), 2048 * 1024);
  assert.equal(parseRss('Name:\tkthreadd\n'), null);
});

test('the trees: roots by group name (replicas numbered), descendants after their root and program', () => {
  const procs = [
    { pid: 1, ppid: 0, label: 'init' },
    { pid: 10, ppid: 1, label: 'main.js' },
    { pid: 11, ppid: 10, label: 'sandbox-worker.js' },
    { pid: 12, ppid: 11, label: 'sh' },
    { pid: 20, ppid: 1, label: 'nats-server' },
    { pid: 30, ppid: 1, label: 'main.js' },
    { pid: 40, ppid: 1, label: 'postgres' },
  ];
  const members = treeMembers({ 'reactor-service': [10, 30], 'nats-server': [20], gone: [99] }, procs);
  assert.deepEqual(
    members.map((m) => [m.pid, m.name]),
    [
      [10, 'reactor-service'],
      [11, 'reactor-service › sandbox-worker.js'],
      [12, 'reactor-service › sh'],
      [30, 'reactor-service#2'],
      [20, 'nats-server'],
    ],
  );
  assert.equal(programLabel('/usr/bin/node\0--no-node-snapshot\0/app/dist/sandbox-worker.js\0', 'node'), 'sandbox-worker.js');
  assert.equal(programLabel('/usr/sbin/nats-server\0-c\0/tmp/nats.conf\0', 'nats-server'), 'nats-server');
  assert.equal(programLabel('', 'kworker'), 'kworker');
});

test('summariseIdle: CPU over the window per process, a late starter from zero, the peak of the summed RSS', () => {
  const MB = 1e6;
  const s = (at, procs) => ({ at, procs });
  const samples = [
    s(0, [
      { pid: 1, name: 'gateway', cpu: 10, start: 5, rss: 100 * MB },
      { pid: 2, name: 'token-service', cpu: 20, start: 5, rss: 200 * MB },
    ]),
    s(1000, [
      { pid: 1, name: 'gateway', cpu: 10.05, start: 5, rss: 110 * MB },
      { pid: 2, name: 'token-service', cpu: 20.01, start: 5, rss: 200 * MB },
      { pid: 3, name: 'reactor-service › sandbox-worker.js', cpu: 0.2, start: 1000, rss: 50 * MB },
    ]),
    s(2000, [
      { pid: 1, name: 'gateway', cpu: 10.1, start: 5, rss: 100 * MB },
      { pid: 3, name: 'reactor-service › sandbox-worker.js', cpu: 0.3, start: 1000, rss: 50 * MB },
    ]),
  ];
  const idle = summariseIdle(samples, { seconds: 2, windowStartTicks: 900 });
  const by = Object.fromEntries(idle.processes.map((p) => [p.pid, p]));
  assert.equal(by[1].cpu_ms, 100);
  assert.equal(by[1].cpu_pct_of_core, 5);
  assert.equal(by[1].rss_max_mb, 110);
  assert.equal(by[2].cpu_ms, 10);
  assert.equal(by[2].ended_during_window, true);
  assert.equal(by[3].cpu_ms, 300); // started inside the window: all of its CPU counts
  assert.equal(by[3].appeared_during_window, true);
  assert.equal(idle.total.cpu_ms, 410);
  assert.equal(idle.total.cpu_pct_of_core, 20.5);
  assert.equal(idle.total.rss_max_mb, 360); // the largest sum of one sample
  assert.equal(idle.total.rss_mb, 150);
  assert.match(idleTable(idle), /total \(3 processes\)/);
});

test('measureIdle samples a real tree: this process and a busy child', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 1500; while (Date.now() < end);']);
  try {
    const idle = await measureIdle({ roots: { test: [process.pid] }, seconds: 1, intervalMs: 250 });
    const kid = idle.processes.find((p) => p.pid === child.pid);
    assert.ok(kid, 'the child is in the tree');
    assert.ok(kid.cpu_pct_of_core > 20, `child CPU ${kid.cpu_pct_of_core} %`);
    assert.ok(idle.total.rss_max_mb > 10);
  } finally {
    child.kill();
  }
});
