import { performance } from 'node:perf_hooks';

export interface ProcessPressureLimits {
  /** refuse while the event loop runs later than this (0: not checked) */
  maxEventLoopDelayMs: number;
  /** refuse while the V8 heap in use is over this (0: not checked) */
  maxHeapUsedBytes: number;
}

/** Sampled this often while requests arrive. */
const SAMPLE_MS = 250;
/** Samples in a row without a request before sampling stops (an idle gateway holds no timer). */
const QUIET_SAMPLES = 8;

/**
 * The gateway process's own saturation: how late the event loop runs (a timer's lateness) and the heap in use,
 * sampled every SAMPLE_MS while requests arrive and not at all while none do. @fastify/under-pressure measured the same
 * with a histogram that woke the process every 10 ms, busy or not: most of an idle system's CPU.
 *
 * A request that finds sampling stopped takes a first heap sample at once; the delay is known from the next sample on
 * (a loop that is free enough to stop sampling was not late).
 */
export class ProcessPressure {
  /** the lateness of the last sample, in ms */
  delayMs = 0;
  heapUsedBytes = 0;
  private timer?: NodeJS.Timeout;
  private requestsSinceSample = 0;
  private quietSamples = 0;

  constructor(private readonly limits: ProcessPressureLimits) {}

  get enabled(): boolean {
    return this.limits.maxEventLoopDelayMs > 0 || this.limits.maxHeapUsedBytes > 0;
  }

  /** A request arrived: sampling runs (from now on, if it had stopped). */
  touch(): void {
    this.requestsSinceSample++;
    if (this.timer || !this.enabled) return;
    this.readHeap();
    this.quietSamples = 0;
    this.schedule();
  }

  /** Whether the process is past a limit now. */
  get saturated(): boolean {
    const { maxEventLoopDelayMs, maxHeapUsedBytes } = this.limits;
    return (maxEventLoopDelayMs > 0 && this.delayMs > maxEventLoopDelayMs) || (maxHeapUsedBytes > 0 && this.heapUsedBytes > maxHeapUsedBytes);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const due = performance.now() + SAMPLE_MS;
    this.timer = setTimeout(() => this.sample(due), SAMPLE_MS);
    this.timer.unref();
  }

  private sample(due: number): void {
    this.delayMs = Math.max(0, performance.now() - due);
    this.readHeap();
    this.quietSamples = this.requestsSinceSample ? 0 : this.quietSamples + 1;
    this.requestsSinceSample = 0;
    if (this.quietSamples >= QUIET_SAMPLES) {
      this.timer = undefined;
      this.delayMs = 0;
      return;
    }
    this.schedule();
  }

  private readHeap(): void {
    if (this.limits.maxHeapUsedBytes > 0) this.heapUsedBytes = process.memoryUsage().heapUsed;
  }
}
