// Prints the console's JavaScript size, gzipped, and fails the build above the budget (docs/console.md).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_BYTES = 300 * 1024;
const dir = path.resolve(process.argv[2] ?? 'dist/apps/console');
const files = fs.readdirSync(path.join(dir, 'assets')).filter((f) => f.endsWith('.js'));
let raw = 0;
let gz = 0;
for (const f of files) {
  const buf = fs.readFileSync(path.join(dir, 'assets', f));
  raw += buf.length;
  gz += zlib.gzipSync(buf, { level: 9 }).length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
process.stdout.write(`console JavaScript: ${files.length} files, ${kb(raw)} (${kb(gz)} gzipped; budget ${kb(BUDGET_BYTES)})\n`);
if (gz > BUDGET_BYTES) {
  process.stderr.write(`the console's JavaScript is over its budget of ${kb(BUDGET_BYTES)} gzipped\n`);
  process.exit(1);
}
