// The integer settings' defaults and ranges in the docs' variable tables against the parsers that read them: a row
// whose "type, range" cell says `integer 1–65535` and whose "default" cell starts with `10000` must match the
// parser's `envInt('NAME', 10000, 1, 65535)`. Only literal numbers are compared (a default computed from a constant,
// or one that differs per service, such as HEALTH_PORT, is left to the reader).
import fs from 'node:fs';
import path from 'node:path';
import { docPages } from './doc-pages.mjs';
import { variableTableRows } from './env-tables.mjs';
import { SERVICE_SOURCES, envReads } from './env-reads.mjs';
import { ROOT } from './sdk-calls.mjs';

const NUMBER = String.raw`(\d[\d_]*(?:\s*\*\s*\d[\d_]*)*)`;
const ENV_INT = new RegExp(String.raw`envInt\(\s*'([A-Z0-9_]+)'\s*,\s*${NUMBER}\s*,\s*${NUMBER}(?:\s*,\s*${NUMBER})?\s*\)`, 'g');

/** `4 * 1024 * 1024`, `25_000` → a number. */
const evaluate = (expr) => (expr === undefined ? undefined : expr.split('*').reduce((product, f) => product * Number(f.trim().replace(/_/g, '')), 1));

/**
 * `Map<variable, { def, min, max }>` of the envInt calls with literal numbers; a variable parsed differently in two
 * places, or from a constant in one, is left out.
 */
export function integerSettings(reads = envReads(SERVICE_SOURCES)) {
  const found = new Map();
  const ambiguous = new Set();
  for (const [name, files] of reads) {
    for (const file of files) {
      const src = fs.readFileSync(path.join(ROOT, file), 'utf8');
      const calls = src.match(new RegExp(String.raw`envInt\(\s*'${name}'`, 'g'))?.length ?? 0;
      const literal = [...src.matchAll(ENV_INT)].filter((m) => m[1] === name).length;
      // a default from a constant here (DEFAULT_HEALTH_PORT) may differ from a literal one elsewhere
      if (calls !== literal) ambiguous.add(name);
      for (const m of src.matchAll(ENV_INT)) {
        if (m[1] !== name) continue;
        const setting = { def: evaluate(m[2]), min: evaluate(m[3]), max: evaluate(m[4]) };
        const seen = found.get(name);
        if (seen && (seen.def !== setting.def || seen.min !== setting.min || seen.max !== setting.max)) ambiguous.add(name);
        found.set(name, setting);
      }
    }
  }
  for (const name of ambiguous) found.delete(name);
  return found;
}

/** Picks the i-th of `a / b` values when a row documents several variables at once (`A` / `B`). */
function nth(cell, i, count) {
  const parts = (cell ?? '').split(' / ');
  return parts.length === count ? parts[i] : parts.length === 1 ? parts[0] : undefined;
}

/** One sentence per documented default or range that is not the parser's. */
export function envDefaultProblems(pages = docPages(), settings = integerSettings()) {
  const problems = [];
  for (const { file, n, cells, head } of variableTableRows(pages, /^variable\b/i)) {
    const columns = { type: head.findIndex((c) => /^type/i.test(c)), def: head.findIndex((c) => /^default/i.test(c)) };
    const names = [...cells[0].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]);
    names.forEach((name, i) => {
      const s = settings.get(name);
      if (!s) return;
      const def = /^`(\d+)`/.exec(nth(cells[columns.def], i, names.length)?.trim() ?? '');
      if (def && Number(def[1]) !== s.def) problems.push(`${file}:${n}: ${name} defaults to ${s.def} in its parser, not ${def[1]}`);
      const range = /integer (\d[\d,]*)\s*[–-]\s*(\d[\d,]*)/.exec(nth(cells[columns.type], i, names.length) ?? '');
      const [min, max] = range ? [Number(range[1].replace(/,/g, '')), Number(range[2].replace(/,/g, ''))] : [];
      if (range && (min !== s.min || (s.max !== undefined && max !== s.max)))
        problems.push(`${file}:${n}: ${name} accepts ${s.min}–${s.max ?? '…'} in its parser, not ${range[1]}–${range[2]}`);
    });
  }
  return problems;
}
