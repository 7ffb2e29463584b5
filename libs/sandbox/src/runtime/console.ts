/**
 * `console`, captured: lines go to the worker's `hostLog` only when the invocation asked for them
 * (`captureConsole`), within the line and byte budgets (the worker enforces them again).
 */
import { links, once } from './host';
import { format, inspect, type InspectOptions } from './inspect';

const MAX_LINE_CHARS = 8192;

const state = { lines: 0, bytes: 0, truncated: false, indent: '' };

function capturing(): boolean {
  return links.opts.capture && links.log !== null && !state.truncated;
}

export function emit(level: string, text: string): void {
  const log = links.log;
  if (!capturing() || log === null) return;
  let line = state.indent + text;
  if (line.length > MAX_LINE_CHARS) line = line.slice(0, MAX_LINE_CHARS) + '... [truncated]';
  state.lines++;
  state.bytes += line.length;
  if (state.lines > links.opts.maxLogLines || state.bytes > links.opts.maxLogBytes) {
    state.truncated = true;
    log('warn', '... [log output truncated]');
    return;
  }
  log(level, line);
}

/** Formats only when the line is kept: an invocation that does not capture pays nothing for its logging. */
function logger(level: string) {
  return (...args: unknown[]): void => {
    if (capturing()) emit(level, format(...args));
  };
}

export const getConsole = once(() => {
  const counters = new Map<string, number>();
  const started = new Map<string, number>();
  const label = (l: unknown) => (l === undefined ? 'default' : String(l));
  return {
    log: logger('log'),
    info: logger('info'),
    debug: logger('debug'),
    warn: logger('warn'),
    error: logger('error'),
    trace: (...args: unknown[]) => {
      if (!capturing()) return;
      const e = new Error(format(...args));
      e.name = 'Trace';
      emit('error', String(e.stack));
    },
    dir: (o: unknown, options?: InspectOptions) => capturing() && emit('log', inspect(o, options)),
    table: (data: unknown) => capturing() && emit('log', inspect(data, { depth: 3 })),
    assert: (cond: unknown, ...rest: unknown[]) => {
      if (!cond && capturing()) emit('error', 'Assertion failed' + (rest.length ? ': ' + format(...rest) : ''));
    },
    count: (l?: unknown) => {
      const n = (counters.get(label(l)) ?? 0) + 1;
      counters.set(label(l), n);
      emit('info', label(l) + ': ' + n);
    },
    countReset: (l?: unknown) => void counters.delete(label(l)),
    time: (l?: unknown) => void started.set(label(l), Date.now()),
    timeEnd: (l?: unknown) => {
      const t = started.get(label(l));
      if (t === undefined) return;
      started.delete(label(l));
      emit('info', label(l) + ': ' + (Date.now() - t) + 'ms');
    },
    timeLog: (l?: unknown) => {
      const t = started.get(label(l));
      if (t !== undefined) emit('info', label(l) + ': ' + (Date.now() - t) + 'ms');
    },
    group: (...args: unknown[]) => {
      if (args.length) emit('log', format(...args));
      state.indent += '  ';
    },
    groupCollapsed: (...args: unknown[]) => {
      if (args.length) emit('log', format(...args));
      state.indent += '  ';
    },
    groupEnd: () => {
      state.indent = state.indent.slice(2);
    },
  };
});

/** Logs an error the formula did not handle (when capturing), with its stack. */
export function logError(what: string, e: unknown): void {
  if (!capturing()) return;
  let text: string;
  try {
    text = e instanceof Error && e.stack ? String(e.stack) : describe(e);
  } catch {
    text = 'Error';
  }
  emit('error', what + ': ' + text);
}

/** `Name: message` of a thrown value (never its stack: used in problem documents). */
export function describe(e: unknown): string {
  try {
    if (e instanceof Error || (e !== null && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string')) {
      const err = e as { name?: unknown; message: string };
      return String(err.name || 'Error') + ': ' + String(err.message);
    }
    return 'Thrown value: ' + inspect(e);
  } catch {
    return 'Thrown value';
  }
}
