/**
 * Operator CLI (docs/keys-rotation.md; what it records in the audit trail: its "Auditability"). stdout carries only
 * the requested result (one JSON object with --json); progress, audit lines and errors go to stderr, so scripts can
 * pipe it. Each group of commands lives in its own module under commands/ and is listed in commands/index.ts;
 * cli/run.ts parses the line and runs one.
 */
import { runCommandLine } from './cli/run';

runCommandLine(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
