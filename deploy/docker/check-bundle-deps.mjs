#!/usr/bin/env node
// Fails when a bundle in <dir> requires a package that is not installed in <dir>/node_modules.
//
//   node check-bundle-deps.mjs <dir>
//
// Webpack keeps node_modules external, so each bundle (main.js, sandbox-worker.js) ends up with require("<package>")
// calls, and the Nx-generated package.json must list every one of those packages. Nx derives that list from the
// import graph it can see; an import only in a gitignored file (such as a generated Prisma client) is missed, and
// the image would then fail at start with "Cannot find module". Run after `npm ci --omit=dev` in the image build.
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules, createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** @returns {{ file: string, specifier: string }[]} the unresolvable requires */
export function missingRequires(dir) {
  const missing = [];
  const bundles = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
  if (bundles.length === 0) throw new Error(`no .js bundle in ${dir}`);
  const requireFrom = createRequire(path.join(path.resolve(dir), 'noop.js'));
  for (const file of bundles) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    const specifiers = new Set([...source.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]));
    for (const specifier of specifiers) {
      if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
      if (builtinModules.includes(specifier) || builtinModules.includes(specifier.split('/')[0])) continue;
      try {
        requireFrom.resolve(specifier);
      } catch {
        missing.push({ file, specifier });
      }
    }
  }
  return missing;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: check-bundle-deps.mjs <dir>');
    process.exit(2);
  }
  const missing = missingRequires(dir);
  for (const { file, specifier } of missing) {
    console.error(`${file} requires "${specifier}", which no installed package provides: add it to the app's dependencies`);
  }
  process.exit(missing.length ? 1 : 0);
}
