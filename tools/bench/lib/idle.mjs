// The idle measurement (issue 35, goal 3): what the throwaway system costs while nobody calls it. The process tree it
// started — every service process, their children (the reactor sandbox's worker processes; worker threads are inside
// their process and count with it) and nats-server, PostgreSQL excluded — sampled once a second over a window: RSS
// per process (/proc/<pid>/status VmRSS) and CPU (utime + stime of /proc/<pid>/stat) as a percentage of one core.
// Linux only; elsewhere the measurement is empty.
import fs from 'node:fs';
import path from 'node:path';
import { clockTicks } from './cpu.mjs';

/** {pid, ppid, comm, cpu (s), start (clock ticks after boot)} of one /proc/<pid>/stat text. */
export function parseProcStat(text) {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  // after the command name: field 3 (state) is rest[0], ppid (4) rest[1], utime (14) rest[11], stime (15) rest[12],
  // starttime (22) rest[19]
  const rest = text.slice(close + 2).split(' ');
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    ppid: Number(rest[1]),
    cpu: (Number(rest[11]) + Number(rest[12])) / clockTicks(),
    start: Number(rest[19]),
  };
}

/** VmRSS of a /proc/<pid>/status text, in bytes (null for kernel threads and vanished processes). */
export function parseRss(statusText) {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(statusText);
  return m ? Number(m[1]) * 1024 : null;
}

/**
 * The processes of the trees rooted at `roots` ({name: [pid, ...]}): each root named after its group (a second pid
 * of a group, i.e. a replica, as `name#2`), each descendant after its root and its own program
 * (`reactor-service › sandbox-worker.js`). `procs`: every process of the machine as {pid, ppid, label}.
 */
export function treeMembers(roots, procs) {
  const children = new Map();
  for (const p of procs) {
    if (!children.has(p.ppid)) children.set(p.ppid, []);
    children.get(p.ppid).push(p);
  }
  const known = new Set(procs.map((p) => p.pid));
  const out = [];
  for (const [group, pids] of Object.entries(roots)) {
    pids.forEach((pid, i) => {
      if (!known.has(pid)) return;
      const rootName = i === 0 ? group : `${group}#${i + 1}`;
      out.push({ pid, name: rootName, root: rootName });
      const queue = [pid];
      while (queue.length) {
        for (const c of children.get(queue.shift()) ?? []) {
          out.push({ pid: c.pid, name: `${rootName} › ${c.label}`, root: rootName });
          queue.push(c.pid);
        }
      }
    });
  }
  return out;
}

/** What a process runs, shortly: the script of a node process (its last *.js / *.mjs argument), else its program. */
export function programLabel(cmdline, comm) {
  const args = cmdline.split('\0').filter(Boolean);
  const script = [...args].reverse().find((a) => /\.(c|m)?js$/.test(a));
  return script ? path.basename(script) : args[0] ? path.basename(args[0]) : comm;
}

function readProcs() {
  const out = [];
  let entries = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      out.push(parseProcStat(fs.readFileSync(`/proc/${name}/stat`, 'utf8')));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

function label(p) {
  try {
    return programLabel(fs.readFileSync(`/proc/${p.pid}/cmdline`, 'utf8'), p.comm);
  } catch {
    return p.comm;
  }
}

/** One sample: every member of the trees with its CPU seconds so far, RSS and start time. */
export function sampleTree(roots) {
  const procs = readProcs();
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  // the label (a read of /proc/<pid>/cmdline) only for the processes of the trees
  const lazy = procs.map((p) => Object.defineProperty({ pid: p.pid, ppid: p.ppid }, 'label', { get: () => label(p) }));
  const members = treeMembers(roots, lazy);
  const at = performance.now();
  return {
    at,
    procs: members.flatMap((m) => {
      const p = byPid.get(m.pid);
      let rss = null;
      try {
        rss = parseRss(fs.readFileSync(`/proc/${m.pid}/status`, 'utf8'));
      } catch {
        return [];
      }
      return [{ ...m, cpu: p.cpu, start: p.start, rss }];
    }),
  };
}

/** Proportional set size (shared pages split between their users) in bytes, or null. */
export function pssBytes(pid) {
  try {
    const m = /^Pss:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Seconds since boot in clock ticks: the scale of /proc/<pid>/stat's starttime. */
export function uptimeTicks() {
  try {
    return Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * clockTicks();
  } catch {
    return NaN;
  }
}

const MB = 1e6;

/**
 * Per process and in total, from the samples of one window: RSS at the end and its peak, CPU seconds over the window
 * and that as a percentage of one core. A process that started during the window (start after `windowStartTicks`)
 * counts from zero CPU, one seen only later from its first sample; one that ended counts until its last sample.
 * `seconds`: the window's length as measured.
 */
export function summariseIdle(samples, { seconds, windowStartTicks = NaN, pss = {} }) {
  const per = new Map();
  samples.forEach((s, i) => {
    for (const p of s.procs) {
      let e = per.get(p.pid);
      if (!e) {
        const startedInside = i > 0 && Number.isFinite(windowStartTicks) && p.start >= windowStartTicks;
        e = { name: p.name, pid: p.pid, cpuFirst: startedInside ? 0 : p.cpu, rssMax: 0, firstSample: i, lastSample: i };
        per.set(p.pid, e);
      }
      e.cpuLast = p.cpu;
      e.rss = p.rss ?? 0;
      e.rssMax = Math.max(e.rssMax, p.rss ?? 0);
      e.lastSample = i;
    }
  });
  const last = samples.length - 1;
  const processes = [...per.values()].map((e) => {
    const cpuS = Math.max(0, e.cpuLast - e.cpuFirst);
    return {
      name: e.name,
      pid: e.pid,
      rss_mb: +(e.rss / MB).toFixed(1),
      rss_max_mb: +(e.rssMax / MB).toFixed(1),
      ...(pss[e.pid] ? { pss_mb: +(pss[e.pid] / MB).toFixed(1) } : {}),
      cpu_ms: Math.round(cpuS * 1000),
      cpu_pct_of_core: +((cpuS / seconds) * 100).toFixed(3),
      ...(e.firstSample > 0 ? { appeared_during_window: true } : {}),
      ...(e.lastSample < last ? { ended_during_window: true } : {}),
    };
  });
  // the total's peak: the largest sum of one sample (not the sum of each process's own peak)
  const sums = samples.map((s) => s.procs.reduce((a, p) => a + (p.rss ?? 0), 0));
  const cpuS = processes.reduce((a, p) => a + p.cpu_ms, 0) / 1000;
  return {
    seconds: +seconds.toFixed(2),
    samples: samples.length,
    processes,
    total: {
      processes: processes.length,
      rss_mb: +((sums[last] ?? 0) / MB).toFixed(1),
      rss_max_mb: +(Math.max(0, ...sums) / MB).toFixed(1),
      ...(Object.keys(pss).length ? { pss_mb: +processes.reduce((a, p) => a + (p.pss_mb ?? 0), 0).toFixed(1) } : {}),
      cpu_ms: Math.round(cpuS * 1000),
      cpu_pct_of_core: +((cpuS / seconds) * 100).toFixed(3),
    },
  };
}

/** Samples the trees every `intervalMs` for `seconds`; resolves to summariseIdle's figures (null without /proc). */
export async function measureIdle({ roots, seconds, intervalMs = 1000 }) {
  if (!fs.existsSync('/proc/self/stat')) return null;
  const windowStartTicks = uptimeTicks();
  const samples = [sampleTree(roots)];
  const started = samples[0].at;
  const end = started + seconds * 1000;
  while (performance.now() < end) {
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(intervalMs, end - performance.now()))));
    samples.push(sampleTree(roots));
  }
  const last = samples[samples.length - 1];
  const pss = {};
  for (const p of last.procs) {
    const v = pssBytes(p.pid);
    if (v !== null) pss[p.pid] = v;
  }
  return summariseIdle(samples, { seconds: (last.at - started) / 1000, windowStartTicks, pss });
}

/** The per-process table, each tree's root followed by its descendants, then the total. */
export function idleTable(idle, note = '') {
  const lines = [
    `idle window ${idle.seconds} s${note ? ` (${note})` : ''}, ${idle.samples} samples: RSS at the end (peak), PSS, CPU over the window`,
    `${'process'.padEnd(46)} ${'pid'.padStart(8)} ${'RSS MB'.padStart(8)} ${'peak'.padStart(8)} ${'PSS MB'.padStart(8)} ${'CPU ms'.padStart(8)} ${'% core'.padStart(8)}`,
  ];
  const fmt = (x, d = 1) => (x === undefined || x === null ? '–' : x.toFixed(d));
  for (const p of idle.processes) {
    const flags = `${p.appeared_during_window ? ' (appeared)' : ''}${p.ended_during_window ? ' (ended)' : ''}`;
    lines.push(
      `${`${p.name}${flags}`.slice(0, 46).padEnd(46)} ${String(p.pid).padStart(8)} ${fmt(p.rss_mb).padStart(8)} ${fmt(p.rss_max_mb).padStart(8)} ${fmt(p.pss_mb).padStart(8)} ${String(p.cpu_ms).padStart(8)} ${fmt(p.cpu_pct_of_core, 3).padStart(8)}`,
    );
  }
  const t = idle.total;
  lines.push(
    `${`total (${t.processes} processes)`.padEnd(46)} ${''.padStart(8)} ${fmt(t.rss_mb).padStart(8)} ${fmt(t.rss_max_mb).padStart(8)} ${fmt(t.pss_mb).padStart(8)} ${String(t.cpu_ms).padStart(8)} ${fmt(t.cpu_pct_of_core, 3).padStart(8)}`,
  );
  return lines.join('\n');
}

/** The same for the .md result file. */
export function idleMarkdown(idle, heading = 'Idle') {
  const fmt = (x, d = 1) => (x === undefined || x === null ? '–' : x.toFixed(d));
  const lines = [
    `## ${heading}`,
    '',
    `${idle.note ? `${idle.note[0].toUpperCase()}${idle.note.slice(1)}; ` : ''}${idle.samples} samples over ${idle.seconds} s. RSS at the end (peak), PSS, CPU over the window.`,
    '',
    '| process | pid | RSS MB | peak MB | PSS MB | CPU ms | % of one core |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const p of idle.processes)
    lines.push(`| ${p.name} | ${p.pid} | ${fmt(p.rss_mb)} | ${fmt(p.rss_max_mb)} | ${fmt(p.pss_mb)} | ${p.cpu_ms} | ${fmt(p.cpu_pct_of_core, 3)} |`);
  const t = idle.total;
  lines.push(
    `| **total** (${t.processes} processes) | | ${fmt(t.rss_mb)} | ${fmt(t.rss_max_mb)} | ${fmt(t.pss_mb)} | ${t.cpu_ms} | ${fmt(t.cpu_pct_of_core, 3)} |`,
  );
  return lines.join('\n');
}
