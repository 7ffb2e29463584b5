#!/usr/bin/env node
// docs/compatibility.md against the end-to-end tests: a method is "supported" (or "differs": supported with a noted
// difference) exactly when a test drives it through the SDK (sdk-calls.mjs); any other status ("untested", "not
// supported") must name no method a test drives. Every method of the installed node SDK (sdk-surface.mjs) is listed. `node tools/docs/compatibility.mjs` prints the differences (exit 1
// when there are any) and what the tests drive; compatibility.test.mjs runs the same check in `npm test`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, drivenSdkMethods } from './sdk-calls.mjs';
import { nodeSdkMethods } from './sdk-surface.mjs';

export const PAGE = 'docs/compatibility.md';

/** The page's sections per SDK, by their heading. */
const SECTIONS = { node: /^## @basis-theory\/node-sdk\b/, js: /^## @basis-theory\/basis-theory-js\b/ };
const DRIVEN_STATUSES = new Set(['supported', 'differs']);
const STATUSES = new Set([...DRIVEN_STATUSES, 'untested', 'not supported']);

/**
 * The method names of a table row's first cell: `tokens.create`; `a.b`, `c` (the second shares the first's prefix:
 * `a.c`); `proxy.get/post` (`proxy.get`, `proxy.post`); `keys.*` (a wildcard). Prose outside backticks is ignored.
 */
export function rowMethods(cell) {
  const names = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1].trim());
  let prefix = '';
  const out = [];
  for (const [i, name] of names.entries()) {
    const full = name.includes('.') || i === 0 ? name : `${prefix}${name}`;
    if (i === 0) prefix = full.includes('.') ? full.slice(0, full.lastIndexOf('.') + 1) : '';
    const dot = full.lastIndexOf('.');
    const last = full.slice(dot + 1);
    for (const alt of last.split('/')) out.push(`${full.slice(0, dot + 1)}${alt}`);
  }
  return out;
}

/** The SDK versions the page's section headings name must be the ones installed (package.json pins them). */
export function versionProblems(text = fs.readFileSync(path.join(ROOT, PAGE), 'utf8')) {
  const problems = [];
  for (const m of text.matchAll(/^## (@basis-theory\/[\w-]+) (\S+)/gm)) {
    const installed = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', m[1], 'package.json'), 'utf8')).version;
    if (installed !== m[2]) problems.push(`${PAGE}: the section on ${m[1]} names ${m[2]}, but ${installed} is installed`);
  }
  return problems;
}

/** `{ node: [{ line, methods, status }], js: [...] }`: the method tables of the page. */
export function documentedMethods(text = fs.readFileSync(path.join(ROOT, PAGE), 'utf8')) {
  const rows = { node: [], js: [] };
  let sdk = null;
  for (const [i, line] of text.split('\n').entries()) {
    if (line.startsWith('## ')) sdk = Object.keys(SECTIONS).find((k) => SECTIONS[k].test(line)) ?? null;
    if (!sdk || !line.startsWith('|')) continue;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length < 3 || cells[0] === 'method' || /^-+$/.test(cells[0])) continue;
    rows[sdk].push({ line: i + 1, methods: rowMethods(cells[0]), status: cells[2] });
  }
  return rows;
}

const matches = (pattern, method) => (pattern.endsWith('.*') ? method.startsWith(pattern.slice(0, -1)) : pattern === method);

/**
 * The differences between the page and the tests, one sentence each (none: the page tells the truth); with `surface`
 * (the node SDK's methods), also every method of the SDK the page does not list and every listed one it lacks.
 */
export function compatibilityProblems(documented = documentedMethods(), driven = drivenSdkMethods(), surface = { node: nodeSdkMethods() }) {
  const problems = [];
  for (const [sdk, methods] of Object.entries(surface)) {
    const patterns = documented[sdk].flatMap((r) => r.methods);
    for (const m of methods) if (!patterns.some((p) => matches(p, m))) problems.push(`${PAGE}: ${sdk} SDK ${m} is a method of the SDK the page does not list`);
    for (const r of documented[sdk])
      for (const p of r.methods) if (![...methods].some((m) => matches(p, m))) problems.push(`${PAGE}:${r.line}: ${sdk} SDK has no method ${p}`);
  }
  for (const sdk of Object.keys(SECTIONS)) {
    const rows = documented[sdk];
    if (!rows.length) problems.push(`${PAGE}: no method table for the ${sdk} SDK`);
    for (const row of rows) {
      if (!STATUSES.has(row.status)) problems.push(`${PAGE}:${row.line}: unknown status "${row.status}" (${[...STATUSES].join(', ')})`);
      if (!DRIVEN_STATUSES.has(row.status)) continue;
      for (const m of row.methods) {
        if (m.endsWith('.*')) problems.push(`${PAGE}:${row.line}: "${m}" is ${row.status}: name each method a test drives instead of a wildcard`);
        else if (!driven[sdk].has(m)) problems.push(`${PAGE}:${row.line}: ${sdk} SDK ${m} is marked ${row.status}, but no end-to-end test calls it`);
      }
    }
    for (const [method, files] of driven[sdk]) {
      const rowsOf = rows.filter((r) => r.methods.some((p) => matches(p, method)));
      if (!rowsOf.length) problems.push(`${PAGE}: ${sdk} SDK ${method} is driven by ${[...files].join(', ')} but not listed`);
      for (const r of rowsOf.filter((x) => !DRIVEN_STATUSES.has(x.status)))
        problems.push(`${PAGE}:${r.line}: ${sdk} SDK ${method} is marked ${r.status}, but ${[...files].join(', ')} drives it`);
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const driven = drivenSdkMethods();
  for (const sdk of Object.keys(driven)) {
    process.stdout.write(`${sdk} SDK methods the end-to-end tests drive:\n`);
    for (const [method, files] of [...driven[sdk]].sort()) process.stdout.write(`  ${method}  (${[...files].join(', ')})\n`);
  }
  const problems = [...versionProblems(), ...compatibilityProblems(documentedMethods(), driven)];
  for (const p of problems) process.stderr.write(`${p}\n`);
  process.exit(problems.length ? 1 : 0);
}
