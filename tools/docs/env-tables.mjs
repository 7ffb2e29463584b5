// The environment variables the docs document: the first column of every table whose first header cell is
// "variable …" or "setting …" (docs/operations.md "Configuration", docs/keys.md "Settings", the tables of
// events.md, proxy.md, benchmarks.md, README.md …), compared with what the code reads (env-reads.mjs).
import { docPages, proseLines } from './doc-pages.mjs';
import { SERVICE_SOURCES, TOOL_SOURCES, envReads } from './env-reads.mjs';

/**
 * Read by a service but not operator configuration, so no table lists them: the runtime's and the OS's own, and
 * what a parent process hands its own children.
 */
export const NOT_CONFIGURATION = {
  NODE_ENV: "Node's convention; nothing of Coffer's behaviour depends on it beyond the libraries'",
  NODE_PATH: "Node's module path, passed on to the sandbox's worker processes",
  SERVICE_NAME: 'internal: each process sets its own name (its NATS connections and logs carry it), not configuration',
  USER: "the OS user: the operator CLI's default --actor",
  COFFER_SANDBOX_CONFIG: "the reactor sandbox's settings, handed by reactor-service to its own worker processes",
  TS_NODE_COMPILER_OPTIONS: 'set by the sandbox for its workers when run from sources (tests)',
  TS_NODE_SKIP_PROJECT: 'set by the sandbox for its workers when run from sources (tests)',
  TS_NODE_TRANSPILE_ONLY: 'set by the sandbox for its workers when run from sources (tests)',
};

/** Documented, and read by something other than Coffer's code: the variable's owner reads it. */
export const READ_BY_OTHERS = {
  NODE_EXTRA_CA_CERTS: 'Node itself: extra CAs every outgoing TLS connection trusts',
  SOFTHSM2_CONF: 'SoftHSM2, the PKCS#11 module, for its token directory',
};
/** Prefixes of variables a library reads by its own standard (the OpenTelemetry SDK's OTEL_*). */
export const READ_BY_OTHERS_PREFIXES = { OTEL_: 'the OpenTelemetry SDK reads the standard OTEL_* variables itself' };

/**
 * The rows of the docs' tables whose first header cell matches `header`, as { file, n, cells, head }: the row's cells
 * and its table's header cells, trimmed (`cells[0]` names the row's variables). Separator rows (`|---|`) are left out.
 */
export function* variableTableRows(pages, header) {
  for (const { file, text } of pages) {
    let head = null;
    for (const { n, line } of proseLines(text)) {
      if (!line.startsWith('|')) {
        head = null;
        continue;
      }
      // `| a | b |` → ['a', 'b']; the closing pipe is optional
      const cells = line
        .slice(1)
        .replace(/\|\s*$/, '')
        .split('|')
        .map((c) => c.trim());
      if (header.test(cells[0])) head = cells;
      else if (head && !/^-+$/.test(cells[0])) yield { file, n, cells, head };
    }
  }
}

/** `Map<variable, Array<file:line>>` of every variable in the docs' variable tables. */
export function documentedVariables(pages = docPages()) {
  const documented = new Map();
  for (const { file, n, cells } of variableTableRows(pages, /^(variable|setting)\b/i)) {
    for (const m of cells[0].matchAll(/`([A-Z][A-Z0-9_]+)`/g)) {
      if (!documented.has(m[1])) documented.set(m[1], []);
      documented.get(m[1]).push(`${file}:${n}`);
    }
  }
  return documented;
}

/** One sentence per difference between the tables and the code (none: they agree). */
export function envTableProblems(documented = documentedVariables(), services = envReads(SERVICE_SOURCES), tools = envReads(TOOL_SOURCES)) {
  const problems = [];
  for (const [name, files] of [...services].sort()) {
    if (documented.has(name) || name in NOT_CONFIGURATION) continue;
    problems.push(`${name} is read by ${[...files].join(', ')} but no table in docs/ or README.md documents it`);
  }
  for (const [name, where] of [...documented].sort()) {
    if (services.has(name) || tools.has(name) || name in READ_BY_OTHERS) continue;
    if (Object.keys(READ_BY_OTHERS_PREFIXES).some((p) => name.startsWith(p))) continue;
    problems.push(`${name} is documented (${where.join(', ')}) but nothing reads it`);
  }
  for (const name of Object.keys(NOT_CONFIGURATION)) if (!services.has(name)) problems.push(`NOT_CONFIGURATION names ${name}, which nothing reads any more`);
  return problems;
}
