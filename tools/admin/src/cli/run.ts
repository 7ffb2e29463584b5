import { parseArgs } from 'node:util';
import { PrismaService } from '@coffer/db';
import { operatorActor } from '@coffer/contracts';
import { type Command, type CommandContext, type OptionValues, UsageError } from './command';
import { COMMANDS } from '../commands';
import { recordOperatorAct } from './operator-audit';
import { defaultOperator } from '../config';

/** Where a run writes: stdout the requested result only, stderr progress, audit lines and errors (each a whole line). */
export interface Io {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/**
 * How long an operator's transaction may run: an act runs once and may touch every row of a tenant of one kind (the
 * shredding ends all of its sessions), so it gets longer than a request's unit of work (15 s); every statement keeps
 * DATABASE_STATEMENT_TIMEOUT_MS.
 */
const ACT_TIMEOUT_MS = 10 * 60_000;

const PROCESS_IO: Io = { stdout: (line) => process.stdout.write(`${line}\n`), stderr: (line) => process.stderr.write(`${line}\n`) };

const USAGE = [
  'usage:',
  ...COMMANDS.map((c) => `  ${c.usage}`),
  'Each command takes --help; mutating commands take --actor <name> (default: the OS user).',
].join('\n');

type Parsed = { command: Command; values: OptionValues; positionals: string[] };

/** The command line, parsed by node:util's parseArgs (strict: an unknown or malformed flag is refused). */
function parseCommandLine(argv: string[]): Parsed | { exit: number; out?: string; err?: string } {
  const [group, action, ...rest] = argv;
  if (group === undefined || group === '--help' || group === '-h') return group === undefined ? { exit: 2, err: USAGE } : { exit: 0, out: USAGE };
  const name = `${group} ${action ?? ''}`.trim();
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return { exit: 2, err: `admin: unknown command "${name}"\n${USAGE}` };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, strict: true, allowPositionals: true });
  } catch (err) {
    return { exit: 2, err: `admin ${name}: ${err instanceof Error ? err.message : String(err)}\nusage: ${command.usage}` };
  }
  if (parsed.values['help']) return { exit: 0, out: `usage: ${command.usage}\n  ${command.summary}` };
  const required = command.positionals?.required ?? 0;
  const allowed = required + (command.positionals?.optional ?? 0);
  if (parsed.positionals.length > allowed)
    return { exit: 2, err: `admin ${name}: unexpected argument "${parsed.positionals[allowed]}"\nusage: ${command.usage}` };
  if (parsed.positionals.length < required) return { exit: 2, err: `admin ${name}: missing argument\nusage: ${command.usage}` };
  return { command, values: parsed.values as OptionValues, positionals: parsed.positionals };
}

function operatorName(values: OptionValues): string {
  const given = values['actor'];
  if (typeof given === 'string' && given.trim()) return given.trim().slice(0, 200);
  return defaultOperator();
}

/**
 * One run of the CLI: parses `argv`, runs the command and returns its exit code (2: usage, 1: a failure, written to
 * stderr). main.ts runs it on the process's arguments; the medium-tier tests run it in-process.
 */
export async function runCommandLine(argv: string[], io: Io = PROCESS_IO): Promise<number> {
  const line = parseCommandLine(argv);
  if ('exit' in line) {
    if (line.out) io.stdout(line.out);
    if (line.err) io.stderr(line.err);
    return line.exit;
  }
  const { command, values, positionals } = line;
  const json = values['json'] === true;
  const actor = operatorName(values);
  // connected on first use: `keys init` talks to the HSM only, and `npm start` runs it before its database is up
  const opened: { prisma?: PrismaService } = {};
  const database = () => (opened.prisma ??= new PrismaService());
  const ctx: CommandContext = {
    values,
    positionals,
    json,
    actor,
    get prisma() {
      return database();
    },
    out: io.stdout,
    err: io.stderr,
    result: (value, text) => io.stdout(json ? JSON.stringify(value) : text),
    transaction: (work) => database().transactional(work, { timeoutMs: ACT_TIMEOUT_MS }),
    audit: (action, details) => recordOperatorAct(database(), operatorActor(actor), action, details, io.stderr),
  };
  try {
    return await command.run(ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`admin ${command.name}: ${err.message}\nusage: ${command.usage}`);
      return 2;
    }
    io.stderr(`admin: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await opened.prisma?.$disconnect();
  }
}
