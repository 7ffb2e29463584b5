// The end of `npm test`'s output names each failed end-to-end test: a long run's log is often read from its tail only.
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** Each failed end-to-end test (or file that could not run) with the first lines of why, from jest's --json results. */
export function failureDigest(results, root) {
  const head = (text) =>
    stripVTControlCharacters(String(text))
      .split('\n')
      .filter((line) => line.trim() && !/^\s+at /.test(line))
      .slice(0, 12)
      .map((line) => `    ${line.trim().slice(0, 300)}`)
      .join('\n');
  const out = [];
  for (const file of results.testResults ?? []) {
    const name = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) out.push(`  ✕ ${name} › ${a.fullName}\n${head(a.failureMessages?.[0] ?? '')}`);
    if (!failed.length && file.status === 'failed') out.push(`  ✕ ${name} (the file did not run)\n${head(file.message ?? '')}`);
  }
  return out.length ? `e2e failures:\n${out.join('\n')}\n` : '';
}
