// No silent regression (issue 35, goal 6): every ratio of this run against the same ratio of the last committed
// result of the same kind — the newest bench/results/<date>-quick.json in git's HEAD for --quick, the newest
// bench/results/<date>.json for a full run (names are the UTC time of the measurement, so the newest name is the
// newest measurement). Ratios are the rows' (throughput ÷ in-run baseline, higher is better) and the goal lines'
// (each with its direction). A ratio "fell" when it got more than 10 % worse: below 0.9 × before when higher is
// better, above before ÷ 0.9 when lower is better.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const RESULT_NAME = /^bench\/results\/(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d)(-quick)?\.json$/;

/** The newest result file of the kind asked for among `paths` (repository paths), or null. */
export function pickCommittedResult(paths, quick) {
  const matching = paths.filter((p) => {
    const m = RESULT_NAME.exec(p);
    return m && Boolean(m[2]) === Boolean(quick);
  });
  return matching.sort().at(-1) ?? null;
}

/** {file, result} of the last committed result of the kind (in HEAD, not the work tree), or {why}. */
export function committedResult(root, quick) {
  let paths;
  try {
    paths = execFileSync('git', ['-C', root, 'ls-tree', '-r', '--name-only', 'HEAD', '--', 'bench/results/'], { encoding: 'utf8' }).split('\n');
  } catch (err) {
    return { why: `git ls-tree failed: ${String(err.message).split('\n')[0]}` };
  }
  const file = pickCommittedResult(paths, quick);
  if (!file) return { why: `no committed bench/results/*${quick ? '-quick' : ''}.json in HEAD` };
  return loadResult(root, `HEAD:${file}`, file);
}

/** A result named by `spec`: a git object (`<rev>:<path>`) or a file of the work tree. */
export function loadResult(root, spec, file = spec) {
  try {
    const text = spec.includes(':') ? execFileSync('git', ['-C', root, 'show', spec], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 }) : readFile(root, spec);
    return { file, result: JSON.parse(text) };
  } catch (err) {
    return { why: `cannot read ${spec}: ${String(err.message).split('\n')[0]}` };
  }
}

const readFile = (root, p) => fs.readFileSync(path.resolve(root, p), 'utf8');

/** The baseline rows the rows' `baseline` keys name (report.mjs rounds a row's ratio to 3 decimals: 0.018 vs 0.02). */
const BASELINE_ROWS = { insert: 'pg INSERT (token-shaped row)', select: 'pg SELECT by primary key', floor: 'bare Fastify handler' };

/** Every comparable ratio of a result: key → {label, value, better}. */
export function ratiosOf(result) {
  const out = new Map();
  const rows = result?.rows ?? [];
  const baselineOps = (r) => rows.find((b) => b.group === 'baseline' && b.scenario === BASELINE_ROWS[r.baseline] && b.clients === r.clients)?.ops_per_s;
  for (const r of rows) {
    if (typeof r.ratio !== 'number' || !Number.isFinite(r.ratio)) continue;
    // unrounded from the two throughputs when the baseline's row is there
    const ops = baselineOps(r);
    out.set(`row|${r.group}|${r.scenario}|${r.clients}`, {
      label: `${rowName(r)} (× ${r.baseline})`,
      value: ops > 0 ? r.ops_per_s / ops : r.ratio,
      better: 'higher',
    });
  }
  for (const g of result?.goals ?? []) {
    if (typeof g.ratio !== 'number' || !Number.isFinite(g.ratio)) continue;
    out.set(`goal|${g.id}`, { label: `goal ${g.id}: ${g.goal} (× ${g.ratio_of})`, value: g.ratio, better: g.better ?? 'higher' });
  }
  return out;
}

/**
 * The ratios of `current` that fell more than `drop` against `previous` (their common ratios only), with how many
 * were compared and how many either side had alone.
 */
export function compareResults(previous, current, drop = 0.1) {
  const before = ratiosOf(previous);
  const now = ratiosOf(current);
  const regressions = [];
  let compared = 0;
  for (const [key, n] of now) {
    const b = before.get(key);
    if (!b || !(b.value > 0)) continue;
    compared++;
    // "more than" 10 %: a drop of exactly 10 % is not one (1e-9: floating point's 0.02 × 0.9 > 0.018)
    const fell = n.better === 'lower' ? n.value > (b.value / (1 - drop)) * (1 + 1e-9) : n.value < b.value * (1 - drop) * (1 - 1e-9);
    if (fell)
      regressions.push({
        key,
        label: n.label,
        before: sig(b.value),
        now: sig(n.value),
        change_pct: +((n.value / b.value - 1) * 100).toFixed(1),
        better: n.better,
      });
  }
  regressions.sort((a, b) => badness(b) - badness(a));
  return {
    compared,
    regressions,
    only_now: [...now.keys()].filter((k) => !before.has(k)).length,
    only_before: [...before.keys()].filter((k) => !now.has(k)).length,
    machine: machineDrift(previous, current, drop),
  };
}

/**
 * The in-run baselines (PostgreSQL's ceilings, the bare HTTP handler, the topology floor: nothing of Coffer in them)
 * whose throughput moved more than `drop` either way between the two results, slowest first. Printed beside the
 * regressions, never instead of them: a ratio that fell while the machine's own hops got slower may be the machine
 * (the baselines do not all move together: a slower loopback costs Coffer's hops more than it costs PostgreSQL).
 */
export function machineDrift(previous, current, drop = 0.1) {
  const key = (r) => `${r.scenario}|${r.clients}`;
  const baselines = (result) => (result?.rows ?? []).filter((r) => r.group === 'baseline' && r.ops_per_s > 0);
  const before = new Map(baselines(previous).map((r) => [key(r), r]));
  const moved = [];
  for (const r of baselines(current)) {
    const b = before.get(key(r));
    if (!b) continue;
    const change = r.ops_per_s / b.ops_per_s - 1;
    if (Math.abs(change) > drop * (1 + 1e-9))
      moved.push({
        scenario: r.scenario,
        clients: r.clients,
        before: Math.round(b.ops_per_s),
        now: Math.round(r.ops_per_s),
        change_pct: +(change * 100).toFixed(1),
      });
  }
  return moved.sort((a, b) => a.change_pct - b.change_pct);
}

const perSecond = (n) => n.toLocaleString('en-US');
const signed = (pct) => `${pct > 0 ? '+' : ''}${pct} %`;
/** "GET /tokens/{id}, 8 clients" */
const rowName = (r) => `${r.scenario}, ${r.clients} client${r.clients === 1 ? '' : 's'}`;
const machineMoved = (pct, file) =>
  `machine itself moved by more than ${pct} against ${file} (in-run baselines, nothing of Coffer in them; a ratio that fell with them may be the machine):`;

/** three significant digits */
const sig = (x) => +x.toPrecision(3);

/** How much worse, as a factor ≥ 1, whichever way is better. */
const badness = (r) => (r.better === 'lower' ? r.now / r.before : r.before / r.now);

/** The lines printed at the end of a run. */
export function comparisonText(cmp, file, drop = 0.1) {
  const pct = `${Math.round(drop * 100)} %`;
  const lines = [`== Regression check against ${file} ==`];
  lines.push(
    `${cmp.compared} ratios compared${cmp.only_now ? `, ${cmp.only_now} new in this run` : ''}${cmp.only_before ? `, ${cmp.only_before} only in ${file}` : ''}`,
  );
  if (!cmp.compared) lines.push(`nothing compared: no ratio of this run is in ${file}`);
  else if (!cmp.regressions.length) lines.push(`no ratio fell more than ${pct} against ${file}`);
  else {
    lines.push(`!! ${cmp.regressions.length} ratio${cmp.regressions.length === 1 ? '' : 's'} fell more than ${pct} against ${file}:`);
    for (const r of cmp.regressions)
      lines.push(`!!   ${r.label}: ${r.before} → ${r.now} (${signed(r.change_pct)}${r.better === 'lower' ? ', lower is better' : ''})`);
  }
  if (cmp.machine?.length) {
    lines.push(`the ${machineMoved(pct, file)}`);
    for (const m of cmp.machine) lines.push(`     ${rowName(m)}: ${perSecond(m.before)} → ${perSecond(m.now)} req/s (${signed(m.change_pct)})`);
  }
  return lines.join('\n');
}

/** The same for the .md result file. */
export function comparisonMarkdown(cmp, file, drop = 0.1) {
  const pct = `${Math.round(drop * 100)} %`;
  const lines = [`## Regression check against ${file}`, '', `${cmp.compared} ratios compared.`];
  if (!cmp.regressions.length) lines.push('', `No ratio fell more than ${pct} against ${file}.`);
  else {
    lines.push('', `${cmp.regressions.length} fell more than ${pct}:`, '', '| ratio | before | now | change |', '|---|---:|---:|---:|');
    for (const r of cmp.regressions) lines.push(`| ${r.label.replace(/\|/g, '\\|')} | ${r.before} | ${r.now} | ${signed(r.change_pct)} |`);
  }
  if (cmp.machine?.length) {
    lines.push('', `The ${machineMoved(pct, file)}`, '', '| baseline | req/s before | now | change |', '|---|---:|---:|---:|');
    for (const m of cmp.machine) lines.push(`| ${rowName(m)} | ${perSecond(m.before)} | ${perSecond(m.now)} | ${signed(m.change_pct)} |`);
  }
  return lines.join('\n');
}
