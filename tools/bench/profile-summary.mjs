#!/usr/bin/env node
// Summarises the .cpuprofile files `npm run bench -- --cpu-prof` wrote: per process, the CPU it spent (idle left
// out), the top frames by self time and by inclusive time, and self time per package (which library the cycles
// went to). `--window <text>` keeps only the samples taken while a scenario whose name contains <text> was measured
// (windows.json beside the profiles; V8 stamps samples with the same monotonic clock the bench records).
//
//   node tools/bench/profile-summary.mjs tmp/cpu-prof/<date> [--window 'GET /tokens/{id}'] [--clients 32] [--top 25]
//     [--callers <frame text>]   also: the call paths (--depth frames up, 3) that lead to frames matching <frame text>
import fs from 'node:fs';
import path from 'node:path';
import { packageOf } from './lib/profile-sites.mjs';

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? fallback : argv[i + 1];
};
const dir = argv[0];
if (!dir || dir.startsWith('--')) {
  console.error('usage: profile-summary.mjs <dir> [--window <scenario text>] [--clients <n>] [--top <n>]');
  process.exit(2);
}
const TOP = Number(opt('top', 20));
const windowText = opt('window');
const clients = opt('clients');
const callersOf = opt('callers');
const depth = Number(opt('depth', 3));

const allWindows = fs.existsSync(path.join(dir, 'windows.json')) ? JSON.parse(fs.readFileSync(path.join(dir, 'windows.json'), 'utf8')) : [];
const windows = windowText
  ? allWindows.filter((w) => w.scenario.toLowerCase().includes(windowText.toLowerCase()) && (!clients || String(w.clients) === clients))
  : [];
if (windowText && !windows.length) {
  console.error(`no measured window matches "${windowText}"${clients ? ` at ${clients} clients` : ''}`);
  process.exit(2);
}
const inWindow = (t) => !windows.length || windows.some((w) => t >= w.startUs && t <= w.endUs);

function frameName(cf) {
  const fn = cf.functionName || '(anonymous)';
  if (!cf.url) return fn;
  const file = cf.url.includes('node_modules/') ? cf.url.slice(cf.url.lastIndexOf('node_modules/') + 13) : cf.url.replace(/^.*\/dist\//, 'dist/');
  return `${fn} ${file}:${cf.lineNumber + 1}`;
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

function summarise(file) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const inclusive = new Map();
  const packages = new Map();
  const callers = new Map();
  let busyUs = 0;
  let gcUs = 0;
  let programUs = 0;
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    t += prof.timeDeltas[i];
    const dt = prof.timeDeltas[i + 1] ?? 0;
    if (!inWindow(t)) continue;
    const node = nodes.get(prof.samples[i]);
    const name = node.callFrame.functionName;
    if (name === '(idle)') continue;
    if (name === '(garbage collector)') gcUs += dt;
    if (name === '(program)') programUs += dt;
    busyUs += dt;
    if (IDLE.has(name)) continue;
    const key = frameName(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const pkg = packageOf(node.callFrame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + dt);
    if (callersOf && key.includes(callersOf)) {
      const chain = [];
      for (let id = parent.get(node.id); id !== undefined && chain.length < depth; id = parent.get(id)) chain.push(frameName(nodes.get(id).callFrame));
      const c = chain.join(' < ');
      callers.set(c, (callers.get(c) ?? 0) + dt);
    }
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const k = frameName(nodes.get(id).callFrame);
      if (seen.has(k) || k === '(root)') continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  }
  return { busyUs, gcUs, programUs, self, inclusive, packages, callers };
}

const pct = (x, total) => `${((100 * x) / total).toFixed(1).padStart(5)}%`;
const ms = (us) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
const top = (map, n) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort();
if (windows.length) console.log(`samples of ${windows.length} window(s): ${[...new Set(windows.map((w) => `${w.scenario} @${w.clients}`))].join('; ')}`);
for (const f of files) {
  const s = summarise(path.join(dir, f));
  if (!s.busyUs) continue;
  console.log(`\n=== ${f}: ${ms(s.busyUs)} busy (GC ${pct(s.gcUs, s.busyUs)}, (program) ${pct(s.programUs, s.busyUs)})`);
  console.log('  self time by package:');
  for (const [k, v] of top(s.packages, 12)) console.log(`    ${pct(v, s.busyUs)} ${k}`);
  console.log('  top self time:');
  for (const [k, v] of top(s.self, TOP)) console.log(`    ${pct(v, s.busyUs)} ${k}`);
  console.log('  top inclusive time:');
  for (const [k, v] of top(s.inclusive, TOP)) console.log(`    ${pct(v, s.busyUs)} ${k}`);
  if (callersOf) {
    console.log(`  callers of "${callersOf}":`);
    for (const [k, v] of top(s.callers, 10)) console.log(`    ${pct(v, s.busyUs)} ${k}`);
  }
}
