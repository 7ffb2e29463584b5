import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CpuSampler, clockTicks, contextSwitches, cpuSeconds, parseStat, parseSwitches } from './cpu.mjs';

test('parseStat reads utime + stime even when the command name has spaces and parentheses', () => {
  const fields = Array.from({ length: 50 }, (_, i) => String(i + 3)); // fields 3.. as their own number
  fields[0] = 'S';
  fields[11] = '150'; // utime (field 14)
  fields[12] = '50'; // stime (field 15)
  const s = parseStat(`1234 (postgres: a (b) c) ${fields.join(' ')}`);
  assert.ok(Math.abs(s * clockTicks() - 200) < 1e-9, `seconds ${s}`);
});

test('this process burns measurable CPU and the sampler attributes it', async () => {
  const sampler = new CpuSampler(async () => ({ me: [process.pid], gone: [999999999] }));
  const before = await sampler.snapshot();
  // busy until the kernel has charged this process 0.2 s more (a shared machine may give it less than a full core)
  const start = cpuSeconds(process.pid);
  const cap = Date.now() + 10_000;
  while (cpuSeconds(process.pid) - start < 0.2 && Date.now() < cap);
  const used = CpuSampler.diff(before, await sampler.snapshot());
  assert.ok(used.me >= 0.2 && used.me < 0.5, `used ${used.me}`);
  assert.equal(used.gone, 0);
  assert.equal(cpuSeconds(999999999), null);
});

test('parseSwitches reads the voluntary and involuntary context switches of a /proc status', () => {
  const status = 'Name:\tnode\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1234\nnonvoluntary_ctxt_switches:\t56\n';
  assert.deepEqual(parseSwitches(status), { voluntary: 1234, involuntary: 56 });
  assert.equal(parseSwitches('Name:\tnode\n'), null);
});

test('a process that waits is counted woken once per wait, summed over its threads', async () => {
  const sampler = new CpuSampler(async () => ({ me: [process.pid], gone: [999999999] }));
  const before = await sampler.snapshot();
  // each timer wait puts the main thread to sleep in epoll_wait until the kernel wakes it
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 2));
  const switches = CpuSampler.switches(before, await sampler.snapshot());
  assert.ok(switches.me.voluntary >= 20, `woken ${switches.me.voluntary}`);
  assert.deepEqual(switches.gone, { voluntary: 0, involuntary: 0 });
  assert.equal(contextSwitches(999999999), null);
});
