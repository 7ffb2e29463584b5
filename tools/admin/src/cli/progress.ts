/** What a progress line shows. */
export interface ProgressState {
  label: string;
  done: number;
  total: number;
  /** rows per second measured by this process, for the ETA */
  rate: number;
}

const BAR_WIDTH = 28;
/** Plain (non-TTY) progress lines at most this often, so logs stay readable. */
const PLAIN_INTERVAL_MS = 5_000;

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : m ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function progressLine(p: ProgressState, bar: boolean): string {
  const total = Math.max(p.total, p.done);
  const ratio = total ? p.done / total : 1;
  const eta = p.rate > 0 ? formatDuration((total - p.done) / p.rate) : '--';
  const pct = `${(ratio * 100).toFixed(1).padStart(5)}%`;
  const counts = `${p.done}/${total} rows  ${p.rate.toFixed(0)} rows/s  ETA ${eta}`;
  if (!bar) return `${p.label}: ${pct}  ${counts}`;
  const filled = Math.round(ratio * BAR_WIDTH);
  return `${p.label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${pct}  ${counts}`;
}

/**
 * Progress on stderr: a bar redrawn in place on a terminal, a plain line every few seconds otherwise (logs,
 * Kubernetes), a JSON object per line with --json (stdout keeps only the final result).
 */
export class ProgressReporter {
  private lastPlain = 0;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly mode: 'tty' | 'plain' | 'json',
  ) {}

  static for(stream: NodeJS.WriteStream, json: boolean): ProgressReporter {
    return new ProgressReporter(stream, json ? 'json' : stream.isTTY ? 'tty' : 'plain');
  }

  update(p: ProgressState, extra: Record<string, unknown> = {}, force = false): void {
    if (this.mode === 'tty') {
      this.stream.write(`\r\x1b[2K${progressLine(p, true)}`);
      this.drawn = true;
      return;
    }
    const now = Date.now();
    if (!force && now - this.lastPlain < PLAIN_INTERVAL_MS) return;
    this.lastPlain = now;
    if (this.mode === 'json') {
      const remaining = Math.max(0, p.total - p.done);
      const eta = p.rate > 0 ? Math.round(remaining / p.rate) : null;
      this.stream.write(
        `${JSON.stringify({ progress: { ...extra, rows_done: p.done, rows_total: p.total, rows_per_second: Math.round(p.rate), eta_seconds: eta } })}\n`,
      );
    } else this.stream.write(`${progressLine(p, false)}\n`);
  }

  end(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}
