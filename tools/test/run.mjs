#!/usr/bin/env node
// `npm test`: install if needed, then format check (Prettier), lint, type checks and unit tests of every project (Nx, cached), then build
// and run the end-to-end suite against the real system (throwaway database, private NATS; see apps/api-e2e), then the
// bounded fault-injection run (tools/faults, `--ci`; FAULTS=0 skips it), then the high-availability drill (tools/ha,
// about 3 minutes; HA=0 skips it). Arguments are passed to jest (a folder or a file runs only those tests, and then
// the fault run and the drill are skipped).
import '../dev/runtime.mjs'; // first: re-executes this command on the pinned Node (docs/runtime.md)
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APPS, ROOT, build, ensureInstalled, nx, run } from '../dev/system.mjs';
import { failureDigest } from './failure-digest.mjs';

const started = Date.now();
const step = (name) => process.stderr.write(`\n[coffer test] ${name} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);

try {
  step('install');
  ensureInstalled();
  step('format (Prettier), lint, type checks, unit tests');
  run(path.join(ROOT, 'node_modules/.bin/prettier'), ['--check', '--log-level=warn', '.']);
  nx(['run-many', '-t', 'lint', 'typecheck', 'test', '--exclude=api-e2e', '--parallel=2']);
  // the end-to-end suite's own code is linted and type-checked too (its `test` is the end-to-end run below)
  nx(['run-many', '-t', 'lint', 'typecheck', '-p', 'api-e2e']);
  step('medium tier: repositories and use cases on PostgreSQL (npm run test:int)');
  nx(['run-many', '-t', 'int-test', '--parallel=2']);
  step('build');
  build([...APPS, 'admin', 'console', 'elements']);
  step('end-to-end tests');
  const results = path.join(ROOT, 'tmp', 'e2e-results.json');
  fs.mkdirSync(path.dirname(results), { recursive: true });
  const jest = spawnSync(
    path.join(ROOT, 'node_modules/.bin/jest'),
    ['-c', 'apps/api-e2e/jest.config.cts', '--json', `--outputFile=${results}`, ...process.argv.slice(2)],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } },
  );
  let summary = '';
  let failures = '';
  try {
    const r = JSON.parse(fs.readFileSync(results, 'utf8'));
    summary = `${r.numPassedTests} passed, ${r.numFailedTests} failed`;
    failures = failureDigest(r, ROOT);
  } catch {
    /* jest did not get far enough to write results */
  }
  let faults = 0;
  if (process.env.FAULTS !== '0' && process.argv.length <= 2) {
    step('fault injection (bounded)');
    faults = spawnSync(process.execPath, [path.join(ROOT, 'tools/faults/run.mjs'), '--ci', '--no-build'], { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
  }
  let ha = 0;
  if (process.env.HA !== '0' && process.argv.length <= 2) {
    step('high-availability drill (npm run test:ha)');
    ha = spawnSync(process.execPath, [path.join(ROOT, 'tools/ha/drill.mjs'), '--no-build'], { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
  }
  step(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (summary) process.stdout.write(`e2e: ${summary}\n`);
  // repeated at the very end: a long run's log is often read from its tail only
  if (failures) process.stdout.write(failures);
  if (faults) process.stdout.write('fault injection: failed (tmp/faults/latest.json)\n');
  if (ha) process.stdout.write('high-availability drill: failed (tmp/ha/latest.json)\n');
  process.exit((jest.status ?? 1) !== 0 || faults || ha ? 1 : 0);
} catch (err) {
  process.stderr.write(`[coffer test] failed: ${err.message}\n`);
  process.exit(1);
}
