import fs from 'node:fs';

/**
 * The whole machine's CPU time so far (the first line of /proc/stat, in the kernel's ticks of 1/100 s): busy (user,
 * nice, system, irq, softirq), waiting on the disk (iowait), taken by the hypervisor (steal), and in all. Null where
 * /proc/stat is not readable. Two readings tell what a run had to share the machine with: a disk that made every
 * commit wait (iowait) or a neighbour's virtual machine (steal) moves every figure of a run, baselines included.
 */
export function machineTime() {
  try {
    const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = user + nice + system + irq + softirq;
    return { busy, iowait, steal, total: busy + idle + iowait + steal };
  } catch {
    return null;
  }
}

/** Busy CPU seconds of the whole machine (all but idle, iowait and steal) at this moment. */
export function machineBusySeconds() {
  return (machineTime()?.busy ?? NaN) / 100;
}

/** Shares (percent of the machine's CPU time) between two readings of machineTime(), or null. */
export function machineShares(before, after) {
  if (!before || !after || after.total <= before.total) return null;
  const total = after.total - before.total;
  const pct = (k) => +((100 * (after[k] - before[k])) / total).toFixed(1);
  return { busy_pct: pct('busy'), iowait_pct: pct('iowait'), steal_pct: pct('steal') };
}
