// The commands a new user runs on a fresh clone (`npm start`, `npm test`, `npm run admin`) install the dependencies
// themselves (system.mjs ensureInstalled), so nothing they import statically may come from node_modules: an ES module's
// static imports are all resolved before its first line runs, and one bare `import … from 'nats'` anywhere in the graph
// fails the command before `npm ci` could run (that is how a CI run once stopped after 7 s). Packages are loaded lazily
// (createRequire or import()) where they are used.
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRIES = ['tools/test/run.mjs', 'tools/dev/start.mjs', 'tools/dev/admin.mjs', 'tools/dev/runtime.mjs'];

// static `import … from '…'`, `import '…'` and `export … from '…'` (dynamic import() is resolved when it runs)
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'"();]*?\sfrom\s)?\s*['"]([^'"]+)['"]/gm;

function staticImports(file) {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(STATIC_IMPORT)].map((m) => m[1]);
}

function packagesReachedFrom(entry) {
  const seen = new Set();
  const packages = [];
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) packages.push(`${path.relative(ROOT, file)} imports '${spec}'`);
    }
  };
  visit(path.join(ROOT, entry));
  return packages;
}

for (const entry of ENTRIES) {
  test(`${entry} statically imports no package from node_modules`, () => {
    assert.deepEqual(packagesReachedFrom(entry), []);
  });
}

test('the import scanner sees a bare package import', () => {
  const probe = path.join(ROOT, 'tmp', `entry-imports-probe-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(probe), { recursive: true });
  fs.writeFileSync(probe, "import fs from 'node:fs';\nimport { nkeys } from 'nats';\nexport { x } from 'pg';\n");
  try {
    assert.deepEqual(staticImports(probe), ['node:fs', 'nats', 'pg']);
  } finally {
    fs.rmSync(probe, { force: true });
  }
});
