import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { envInt } from './config';

/**
 * Gives memory back once a process has gone quiet (issue 35: what an idle Coffer holds). V8 keeps what a burst of
 * work grew its heap to — a young generation of up to 32–64 MB, freed pages pooled for reuse — and its own memory
 * reducer never acts in a process that allocates nothing at all (it mistakes no allocation for a high rate), which is
 * what an idle service is. So: MEMORY_RECLAIM_IDLE_MS after work was noted (a request served or made, a worker loop's
 * tick), if the event loop was close to idle meanwhile and the resident set grew by RECLAIM_GROWTH_BYTES since the
 * last time — and once shortly after start-up (reclaimMemoryAfterStart) — one full garbage collection that shrinks the heap and returns its free pages to the system (the "last
 * resort" collection V8 runs before it gives up on memory: 60–280 ms on this machine, once per quiet spell). No timer
 * runs while nothing is noted; under load one timer per period, re-armed.
 */
const RECLAIM_GROWTH_BYTES = 8 * 1024 * 1024;
/** How long after it listens a process is still starting (reclaimMemoryAfterStart). */
const STARTUP_SETTLE_MS = 2_000;
/** The event loop was busy less than this share of the period: the process is quiet. */
const QUIET_UTILIZATION = 0.01;

/** MEMORY_RECLAIM_IDLE_MS: 0 – 1 day, default 10 000; 0 turns it off. */
export function memoryReclaimIdleMs(): number {
  return envInt('MEMORY_RECLAIM_IDLE_MS', 10_000, 0, 86_400_000);
}

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let idleMs: number | undefined;
let timer: NodeJS.Timeout | undefined;
let since: EventLoopUtilization | undefined;
let residentAfterLast = 0;
let collect: Collect | undefined;
let onReclaimed: ((stats: { beforeBytes: number; afterBytes: number; ms: number }) => void) | undefined;

/** Where a reclaim is reported (the service's logger, at debug level). */
export function reportMemoryReclaim(report: typeof onReclaimed): void {
  onReclaimed = report;
}

/** Work happened (or is about to): arms the quiet check if it is not armed. Cheap enough for every request. */
export function noteActivity(): void {
  if (timer || reclaimIdleMs() === 0) return;
  since = performance.eventLoopUtilization();
  timer = setTimeout(check, reclaimIdleMs());
  timer.unref();
}

/**
 * Gives back what start-up left behind: the processes call it once they listen, and `afterMs` later (the first
 * rounds of their workers, the database client's first statements are start-up too) the same collection runs, once,
 * rather than after a quiet spell that start-up's own work keeps putting off.
 */
export function reclaimMemoryAfterStart(afterMs = STARTUP_SETTLE_MS): void {
  if (reclaimIdleMs() === 0) return;
  if (afterMs <= 0) return reclaim();
  setTimeout(reclaim, afterMs).unref();
}

function reclaimIdleMs(): number {
  if (idleMs === undefined) {
    try {
      idleMs = memoryReclaimIdleMs();
    } catch {
      idleMs = 0; // a bad value stops the process at its configuration check; nothing to do here meanwhile
    }
  }
  return idleMs;
}

function check(): void {
  timer = undefined;
  const busy = performance.eventLoopUtilization(since).utilization;
  // still working: look again one period later
  if (busy > QUIET_UTILIZATION) return noteActivity();
  if (process.memoryUsage.rss() - residentAfterLast < RECLAIM_GROWTH_BYTES) return;
  reclaim();
}

function reclaim(): void {
  const before = process.memoryUsage.rss();
  const started = performance.now();
  try {
    (collect ??= exposedCollector())({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } catch {
    idleMs = 0; // no collector in this runtime: give up for the life of the process
    return;
  }
  residentAfterLast = process.memoryUsage.rss();
  onReclaimed?.({ beforeBytes: before, afterBytes: residentAfterLast, ms: performance.now() - started });
}

/**
 * V8's `gc` function, without --expose-gc on the command line or `gc` on the global object: the flag is turned on
 * only while a throwaway context is created to take the function from, as jest's leak detector does.
 */
function exposedCollector(): Collect {
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as Collect;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
