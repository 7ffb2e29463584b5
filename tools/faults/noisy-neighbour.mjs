// The noisy-neighbour phase of the fault-injection suite: the end-to-end file
// apps/api-e2e/src/security/noisy-neighbour.e2e.spec.ts run again with its long profile (NOISY_NEIGHBOUR_MODE=full:
// 5 s baselines, 20 s attack windows, 6 victim clients per operation). The patterns, the victim timer and the report
// live in TypeScript beside that file; running it through jest (its own throwaway system, started after this suite
// has stopped its own so the two never share the machine) keeps one copy of them instead of an .mjs duplicate.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../dev/system.mjs';

const SPEC = 'apps/api-e2e/src/security/noisy-neighbour.e2e.spec.ts';
const REPORT = path.join(ROOT, 'tmp', 'noisy-neighbour.json');

/**
 * Runs every pattern; resolves with the report the spec wrote (tmp/noisy-neighbour.json) and jest's exit status.
 * `windowSeconds` and `clients` override the profile's (NOISY_NEIGHBOUR_WINDOW_S, NOISY_NEIGHBOUR_CLIENTS).
 */
export function runNoisyNeighbour({ windowSeconds, clients, log }) {
  fs.rmSync(REPORT, { force: true });
  const env = { ...process.env, NX_DAEMON: 'false', NOISY_NEIGHBOUR_MODE: 'full' };
  if (windowSeconds) env.NOISY_NEIGHBOUR_WINDOW_S = String(windowSeconds);
  if (clients) env.NOISY_NEIGHBOUR_CLIENTS = String(clients);
  log(`noisy neighbour: ${SPEC} with NOISY_NEIGHBOUR_MODE=full${windowSeconds ? `, ${windowSeconds} s windows` : ''} ...`);
  const jest = spawnSync(path.join(ROOT, 'node_modules/.bin/jest'), ['-c', 'apps/api-e2e/jest.config.cts', SPEC], { cwd: ROOT, stdio: 'inherit', env });
  let report = null;
  try {
    report = JSON.parse(fs.readFileSync(REPORT, 'utf8'));
  } catch {
    /* jest did not get as far as the report */
  }
  return { status: jest.status ?? 1, report };
}

/** One assertion per pattern for the suite's list: the victim's figures, or what went wrong. */
export function noisyNeighbourAssertions({ status, report }) {
  if (!report) return [{ name: 'noisy neighbour: the patterns ran', ok: false, figure: `jest exited ${status} without ${path.relative(ROOT, REPORT)}` }];
  const rows = report.results.map((r) => {
    const figures = Object.entries(r.under_attack)
      .map(([op, f]) => `${op} p50/p99 ${r.baseline[op]?.p50_ms}/${r.baseline[op]?.p99_ms} → ${f.p50_ms}/${f.p99_ms} ms, ${f.failures}/${f.requests} failed`)
      .join('; ');
    return { name: `noisy neighbour: ${r.pattern}`, ok: r.problems.length === 0, figure: r.problems.length ? `${figures}; ${r.problems.join('; ')}` : figures };
  });
  if (status !== 0 && rows.every((r) => r.ok)) rows.push({ name: 'noisy neighbour: jest passed', ok: false, figure: `exit ${status}` });
  return rows;
}
