import type { ParseArgsConfig } from 'node:util';
import type { PrismaService } from '@coffer/db';

export type OptionValues = Record<string, string | boolean | undefined>;

/** What a command gets to run: its parsed flags and arguments, the database, and where to write. */
export interface CommandContext {
  values: OptionValues;
  positionals: string[];
  json: boolean;
  /** who runs the command: --actor, else the operating system user (named in key jobs and the audit lines) */
  actor: string;
  prisma: PrismaService;
  out: (text: string) => void;
  err: (text: string) => void;
  /** one JSON object (with --json) or the text, on stdout */
  result: (json: unknown, text: string) => void;
  /**
   * Runs `work` in one database transaction and returns its result once committed: every query of `prisma` made in
   * it joins (PrismaService.transactional, the unit of work), TenantAdmin's and the key job's included. An act and its
   * `audit` record run in one, so both commit or neither does.
   */
  transaction: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * Records the act in the audit trail (actor `operator`), inside the open `transaction` (refused outside one). Once
   * that commits, the record is also written as a JSON line on stderr and the audit sealer is woken.
   */
  audit: (action: string, details: Record<string, unknown>) => Promise<void>;
}

/**
 * One operator command: its two words, its flags (parsed strictly by node:util parseArgs), its help and what it
 * does. run() returns the exit code; a thrown UsageError exits 2 with the usage.
 */
export interface Command {
  name: string;
  usage: string;
  summary: string;
  options?: NonNullable<ParseArgsConfig['options']>;
  /** positional arguments after the two words: exactly `required`, at most `required + optional` */
  positionals?: { required?: number; optional?: number };
  run(ctx: CommandContext): Promise<number>;
}

export class UsageError extends Error {}

/** A command as a table of commands describes it (the run is the table's, by the command's name). */
export interface CommandSpec {
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** how many positional arguments it requires */
  positionals: number;
}

/** The commands of a table of specs, each run by `run(name, ctx)`. */
export function commandsOf(specs: Record<string, CommandSpec>, run: (name: string, ctx: CommandContext) => Promise<number>): Command[] {
  return Object.entries(specs).map(([name, spec]) => ({
    name,
    usage: spec.usage,
    summary: spec.summary,
    options: spec.options,
    positionals: { required: spec.positionals },
    run: (ctx) => run(name, ctx),
  }));
}

/** A flag's value as a whole number within bounds (a UsageError otherwise). */
export function intOption(values: OptionValues, name: string, fallback: number, min: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function tenantIdArgument(value: string | boolean | undefined, what = 'tenant id'): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw new UsageError(`the ${what} must be a UUID`);
  return value.toLowerCase();
}
