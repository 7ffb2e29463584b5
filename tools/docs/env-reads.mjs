// The environment variables Coffer's code reads, found in its sources: `process.env.NAME`, `process.env['NAME']`,
// `env['NAME']` (a parser given the environment), the config helpers `envInt('NAME', …)`, `envBool('NAME')` … and
// `int(env, 'NAME', …)`, and
// a parser's own helpers (`optional('NAME')`) in a file that reads the environment. The docs' variable tables are checked against it (env-tables.mjs, docs-facts.test.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './sdk-calls.mjs';

/** What the services and the operator CLI read: their configuration parsers (config.ts, libs' *-config.ts, …). */
export const SERVICE_SOURCES = ['apps', 'libs', 'tools/admin/src'];
/** What the repository's tools read besides (npm start, the benchmark, the test and fault runners). */
export const TOOL_SOURCES = ['tools'];

/** Not the product's code: tests, the test harness and its helpers, generated files, the browser console's pages. */
const SKIP_DIR = new Set(['node_modules', 'testing', 'generated', 'dist', '__fixtures__', 'apps/api-e2e', 'apps/console']);
const SKIP_FILE = /\.(spec|test|int-spec|e2e\.spec)\.[cm]?[jt]s$|^jest\./;
const SOURCE = /\.(ts|mjs|js|cjs)$/;

const READS = [
  /\bprocess\.env\.([A-Z][A-Z0-9_]+)/g,
  /\b(?:process\.)?env\s*\[\s*['"]([A-Z][A-Z0-9_]+)['"]\s*\]/g,
  /\benv[A-Z]\w*\(\s*['"]([A-Z][A-Z0-9_]+)['"]/g,
  /\(\s*env\s*,\s*['"]([A-Z][A-Z0-9_]+)['"]/g,
];
/** A parser's local helper (`optional('NATS_USER')`, `readableFile('NATS_TLS_CA_FILE')`), in a file that reads the environment. */
const HELPER_CALL = /\b[a-zA-Z]\w*\(\s*['"]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]\s*[,)]/g;
const READS_ENV = /\bprocess\.env\b|\benv\s*\[|\benv[A-Z]\w*\(/;

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP_DIR.has(e.name) || SKIP_DIR.has(path.relative(ROOT, p)) ? [] : sourceFiles(p);
    return SOURCE.test(e.name) && !SKIP_FILE.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** `Map<variable, Set<file>>` of every variable read under `roots` (relative to the repository). */
export function envReads(roots) {
  const reads = new Map();
  for (const root of roots) {
    for (const file of sourceFiles(path.join(ROOT, root))) {
      const src = fs.readFileSync(file, 'utf8');
      for (const pattern of READS_ENV.test(src) ? [...READS, HELPER_CALL] : READS) {
        for (const m of src.matchAll(pattern)) {
          if (!reads.has(m[1])) reads.set(m[1], new Set());
          reads.get(m[1]).add(path.relative(ROOT, file));
        }
      }
    }
  }
  return reads;
}
