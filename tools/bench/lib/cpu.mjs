// CPU seconds per process from /proc/<pid>/stat (utime + stime), so a scenario's cost per request can be split
// between the gateway, each service, nats-server and PostgreSQL's backends; and each process's context switches
// (/proc/<pid>/task/*/status), so it can be told how often a request makes a process sleep and be woken again, and how
// often one is preempted. Linux only; elsewhere every figure is null.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

let ticksPerSecond;
export function clockTicks() {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of one process in seconds, or null when it is gone or /proc is not there. */
export function parseStat(text) {
  // the command name (field 2) is in parentheses and may contain spaces: split after the last ')'
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): utime is field 14, stime field 15
  return (Number(rest[11]) + Number(rest[12])) / clockTicks();
}

export function cpuSeconds(pid) {
  try {
    return parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Context switches of one thread, from its /proc status: `voluntary` (it waited, for a socket or a timer, and was
 * woken) and `involuntary` (it was preempted while it could run), or null when the lines are not there.
 */
export function parseSwitches(statusText) {
  const voluntary = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(statusText);
  const involuntary = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(statusText);
  return voluntary && involuntary ? { voluntary: Number(voluntary[1]), involuntary: Number(involuntary[1]) } : null;
}

/** Context switches of every thread of `pid` together (Node waits in its main thread and its workers), or null when it is gone. */
export function contextSwitches(pid) {
  try {
    const total = { voluntary: 0, involuntary: 0 };
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      let s = null;
      try {
        s = parseSwitches(fs.readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'));
      } catch {
        // the thread ended between the listing and the read
      }
      if (!s) continue;
      total.voluntary += s.voluntary;
      total.involuntary += s.involuntary;
    }
    return total;
  } catch {
    return null;
  }
}

/**
 * Watches named groups of processes. `groups()` returns {name: [pid, ...]} and is asked again at every snapshot
 * (PostgreSQL backends come and go); a pid first seen after the start is counted from zero CPU, which over-counts
 * at most what it did before the scenario.
 */
export class CpuSampler {
  constructor(groups) {
    this.groups = groups;
  }

  async snapshot() {
    const groups = await this.groups();
    const snap = {};
    for (const [name, pids] of Object.entries(groups)) {
      snap[name] = new Map();
      for (const pid of pids) {
        const cpu = cpuSeconds(pid);
        if (cpu !== null) snap[name].set(pid, { cpu, switches: contextSwitches(pid) });
      }
    }
    return snap;
  }

  /** CPU seconds used by each group between two snapshots. */
  static diff(before, after) {
    const out = {};
    for (const [name, pids] of Object.entries(after)) {
      let total = 0;
      for (const [pid, s] of pids) total += s.cpu - (before[name]?.get(pid)?.cpu ?? 0);
      out[name] = Math.max(0, +total.toFixed(3));
    }
    return out;
  }

  /**
   * Context switches of each group between two snapshots, {voluntary, involuntary}. A thread that ended between them
   * takes its count away (the group's figure is then too low by what it did, never negative); a pid first seen after
   * the start is counted from zero, as its CPU is.
   */
  static switches(before, after) {
    const out = {};
    for (const [name, pids] of Object.entries(after)) {
      const total = { voluntary: 0, involuntary: 0 };
      for (const [pid, s] of pids) {
        const was = before[name]?.get(pid)?.switches;
        if (!s.switches) continue;
        total.voluntary += Math.max(0, s.switches.voluntary - (was?.voluntary ?? 0));
        total.involuntary += Math.max(0, s.switches.involuntary - (was?.involuntary ?? 0));
      }
      out[name] = total;
    }
    return out;
  }
}

/** pids of the PostgreSQL backends serving `database` (needs the server on this machine and /proc). */
export async function postgresBackends(pool, database) {
  const res = await pool.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  return res.rows.map((r) => r.pid).filter((pid) => fs.existsSync(`/proc/${pid}`));
}
