#!/usr/bin/env node
// What an idle Coffer costs (issue 35): RSS and CPU of every process of a running `npm start` system, sampled over
// a window. PostgreSQL is left out (an operator's database, not ours); nats-server, the services, their sandbox
// worker processes and the launcher (npm, start.mjs) are in.
//
//   node tools/dev/idle-report.mjs                    starts `npm start` itself (ports: PORT, CONSOLE_PORT, ...),
//                                                     waits until it is ready, then --warmup s, samples, stops it
//   node tools/dev/idle-report.mjs --pid <pid>        samples the process tree of a system already running
//   options: --warmup <s> (default 30), --window <s> (default 60), --every <s> (default 5), --json
//
// CPU is utime+stime (all threads) from /proc/<pid>/stat over the window, as % of one core; RSS (VmRSS) and PSS
// (smaps_rollup: shared pages split among their sharers, so the PSS column adds up) are the largest seen in the window.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const warmupS = Number(opt('warmup', 30));
const windowS = Number(opt('window', 60));
const everyS = Number(opt('every', 5));
const json = args.includes('--json');
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => process.stderr.write(`[idle-report] ${msg}\n`);

function children() {
  const byParent = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = stat(Number(d));
    if (!st) continue;
    if (!byParent.has(st.ppid)) byParent.set(st.ppid, []);
    byParent.get(st.ppid).push(Number(d));
  }
  return byParent;
}

function stat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const f = s.slice(close + 2).split(' ');
    // f[0] is field 3 (state): ppid is field 4, utime 14, stime 15
    return { comm, ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

function memory(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    let pss = 0;
    try {
      pss = Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* not readable */
    }
    return { rssKb: rss, pssKb: pss };
  } catch {
    return null;
  }
}

function nameOf(pid, comm) {
  let cmd = [];
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return comm;
  }
  const line = cmd.join(' ');
  const app = /dist\/apps\/([^/]+)\/(main|sandbox-worker)\.js/.exec(line);
  if (app) return app[2] === 'main' ? app[1] : `${app[1]} sandbox-worker`;
  if (/nats-server/.test(line)) return 'nats-server';
  if (/tools\/dev\/service-host\.mjs/.test(line)) return 'service host (the six services as threads)';
  if (/tools\/dev\/start\.mjs/.test(line)) return 'start.mjs (launcher)';
  if (/npm/.test(line) && /start/.test(line)) return 'npm start (launcher)';
  return `${comm}: ${line.slice(0, 60)}`;
}

/** Every descendant of `root` (and root), PostgreSQL's processes and their subtrees left out. */
function tree(root) {
  const byParent = children();
  const out = [];
  const walk = (pid) => {
    const st = stat(pid);
    if (!st || st.comm === 'postgres' || st.comm === 'sh' || st.comm === 'initdb') {
      if (st?.comm === 'sh') for (const c of byParent.get(pid) ?? []) walk(c);
      return;
    }
    out.push(pid);
    for (const c of byParent.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
}

async function sample(root) {
  const seen = new Map();
  const observe = () => {
    const now = performance.now();
    for (const pid of tree(root)) {
      const st = stat(pid);
      const mem = memory(pid);
      if (!st || !mem) continue;
      let p = seen.get(pid);
      if (!p) seen.set(pid, (p = { pid, name: nameOf(pid, st.comm), firstTicks: st.ticks, firstAt: now, rssKb: 0, pssKb: 0 }));
      p.lastTicks = st.ticks;
      p.lastAt = now;
      p.rssKb = Math.max(p.rssKb, mem.rssKb);
      p.pssKb = Math.max(p.pssKb, mem.pssKb);
    }
  };
  const started = performance.now();
  observe();
  while (performance.now() - started < windowS * 1000) {
    await sleep(Math.min(everyS * 1000, windowS * 1000 - (performance.now() - started)));
    observe();
  }
  const elapsedS = (performance.now() - started) / 1000;
  return [...seen.values()].map((p) => ({
    pid: p.pid,
    name: p.name,
    rssMb: p.rssKb / 1024,
    pssMb: p.pssKb / 1024,
    cpuTicks: p.lastTicks - p.firstTicks,
    // % of one core over the window (a process that came or went meanwhile: over the whole window all the same)
    cpuPct: ((p.lastTicks - p.firstTicks) / TICKS / elapsedS) * 100,
    seenS: (p.lastAt - p.firstAt) / 1000,
  }));
}

function table(rows) {
  const sorted = [...rows].sort((a, b) => b.rssMb - a.rssMb);
  const launcher = (r) => /launcher/.test(r.name);
  const sum = (rs, k) => rs.reduce((s, r) => s + r[k], 0);
  const line = (name, pid, rss, pss, cpu) =>
    `| ${name.padEnd(36)} | ${String(pid).padStart(7)} | ${rss.toFixed(1).padStart(8)} | ${pss.toFixed(1).padStart(8)} | ${cpu.toFixed(3).padStart(7)} |`;
  const out = [
    `| ${'process'.padEnd(36)} | ${'pid'.padStart(7)} | ${'RSS MB'.padStart(8)} | ${'PSS MB'.padStart(8)} | ${'CPU %'.padStart(7)} |`,
    `|${'-'.repeat(38)}|${'-'.repeat(9)}:|${'-'.repeat(9)}:|${'-'.repeat(9)}:|${'-'.repeat(8)}:|`,
  ];
  for (const r of sorted) out.push(line(r.name, r.pid, r.rssMb, r.pssMb, r.cpuPct));
  const system = rows.filter((r) => !launcher(r));
  out.push(line('total: services, workers, nats-server', '', sum(system, 'rssMb'), sum(system, 'pssMb'), sum(system, 'cpuPct')));
  out.push(line('total with the launcher', '', sum(rows, 'rssMb'), sum(rows, 'pssMb'), sum(rows, 'cpuPct')));
  return out.join('\n');
}

async function main() {
  let root = Number(opt('pid', 0));
  let system;
  if (!root) {
    log('starting `npm start` ...');
    system = spawn('npm', ['start'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    root = system.pid;
    const ready = new Promise((resolve, reject) => {
      let out = '';
      const onData = (b) => {
        out = (out + b.toString()).slice(-20_000);
        if (/ready in [\d.]+ s/.test(out)) resolve();
        if (/start failed/.test(out)) reject(new Error(out.slice(-2000)));
      };
      system.stdout.on('data', onData);
      system.stderr.on('data', onData);
      system.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${out.slice(-2000)}`)));
    });
    await ready;
    log('ready');
  }
  try {
    log(`waiting ${warmupS} s, then sampling for ${windowS} s ...`);
    await sleep(warmupS * 1000);
    const rows = await sample(root);
    if (json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else process.stdout.write(`${table(rows)}\n`);
  } finally {
    if (system) {
      // our own process group: npm, start.mjs and what it started
      try {
        process.kill(-system.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await new Promise((r) => (system.exitCode !== null ? r() : system.once('exit', r)));
    }
  }
}

main().catch((err) => {
  log(err.stack ?? String(err));
  process.exit(1);
});
