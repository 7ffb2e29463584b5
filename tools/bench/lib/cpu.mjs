// CPU seconds per process from /proc/<pid>/stat (utime + stime), so a scenario's cost per request can be split
// between the gateway, each service, nats-server and PostgreSQL's backends. Linux only; elsewhere every figure is null.
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
        const s = cpuSeconds(pid);
        if (s !== null) snap[name].set(pid, s);
      }
    }
    return snap;
  }

  /** CPU seconds used by each group between two snapshots. */
  static diff(before, after) {
    const out = {};
    for (const [name, pids] of Object.entries(after)) {
      let total = 0;
      for (const [pid, s] of pids) total += s - (before[name]?.get(pid) ?? 0);
      out[name] = Math.max(0, +total.toFixed(3));
    }
    return out;
  }
}

/** pids of the PostgreSQL backends serving `database` (needs the server on this machine and /proc). */
export async function postgresBackends(pool, database) {
  const res = await pool.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  return res.rows.map((r) => r.pid).filter((pid) => fs.existsSync(`/proc/${pid}`));
}
