/**
 * Operator CLI (docs/operations.md, "Operator CLI"). stdout carries only the requested result (one JSON object with
 * --json); progress, audit lines and errors go to stderr, so scripts can pipe it. Each group of commands lives in
 * its own module under commands/ and is listed in commands/index.ts.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { PrismaService } from '@coffer/db';
import { operatorActor } from '@coffer/contracts';
import { type Command, type CommandContext, type OptionValues, UsageError } from './cli/command';
import { COMMANDS } from './commands';
import { recordOperatorAct } from './cli/operator-audit';

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
  try {
    return os.userInfo().username;
  } catch {
    return process.env['USER'] ?? 'operator';
  }
}

async function main(): Promise<number> {
  const line = parseCommandLine(process.argv.slice(2));
  if ('exit' in line) {
    if (line.out) process.stdout.write(`${line.out}\n`);
    if (line.err) process.stderr.write(`${line.err}\n`);
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
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    result: (value, text) => process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`),
    audit: async (action, details) => {
      process.stderr.write(`${JSON.stringify({ audit: { at: new Date().toISOString(), actor: operatorActor(actor), action, ...details } })}\n`);
      await recordOperatorAct(database(), operatorActor(actor), action, details);
    },
  };
  try {
    return await command.run(ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`admin ${command.name}: ${err.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    throw err;
  } finally {
    await opened.prisma?.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
