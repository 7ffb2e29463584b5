#!/usr/bin/env node
// Writes a package.json and a package-lock.json holding only the named root dependencies and what they need,
// with exactly the versions, tarballs and integrity hashes of the workspace lockfile, so that
// `npm ci --omit=dev` installs a minimal, reproducible tree. Used by deploy/docker/Dockerfile (stage migrate-deps)
// to give the migration image just what tools/db/migrate.mjs loads (pg).
//
//   node prune-lockfile.mjs <workspace-dir> <out-dir> <package> [<package>...]
//
// Resolution follows Node's: a dependency of the package at node_modules/a is looked up at
// node_modules/a/node_modules/<dep>, then upwards to node_modules/<dep>.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** @returns {{ packageJson: object, lockfile: object }} */
export function pruneLockfile(rootPackageJson, rootLockfile, names, outName = 'coffer-pruned') {
  const packages = rootLockfile.packages;
  if (!packages || rootLockfile.lockfileVersion < 2) {
    throw new Error('a lockfileVersion 2 or 3 package-lock.json (with "packages") is required');
  }
  const rootDeps = { ...(rootPackageJson.dependencies ?? {}) };
  const dependencies = {};
  for (const name of names) {
    if (!rootDeps[name]) throw new Error(`${name} is not a production dependency of the workspace package.json`);
    dependencies[name] = rootDeps[name];
  }

  const parentOf = (key) => {
    const i = key.lastIndexOf('/node_modules/');
    return i === -1 ? '' : key.slice(0, i);
  };
  const resolve = (fromKey, dep) => {
    for (let base = fromKey; ; base = parentOf(base)) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${dep}`;
      if (packages[candidate]) return candidate;
      if (!base) return null;
    }
  };

  // Walk twice: required edges only, then with optional ones, to recompute the `optional` flag for the subset.
  const walk = (includeOptional) => {
    const seen = new Set();
    const queue = names.map((n) => {
      const key = resolve('', n);
      if (!key) throw new Error(`${n} is missing from the lockfile`);
      return key;
    });
    while (queue.length) {
      const key = queue.shift();
      if (seen.has(key)) continue;
      const entry = packages[key];
      if (entry.link) throw new Error(`${key} is a workspace link; only registry packages can be pruned`);
      seen.add(key);
      const edges = [
        ...Object.keys(entry.dependencies ?? {}).map((d) => [d, false]),
        ...Object.keys(entry.peerDependencies ?? {}).map((d) => [d, entry.peerDependenciesMeta?.[d]?.optional === true]),
        ...(includeOptional ? Object.keys(entry.optionalDependencies ?? {}).map((d) => [d, true]) : []),
      ];
      for (const [dep, optional] of edges) {
        const target = resolve(key, dep);
        if (target) queue.push(target);
        else if (!optional) throw new Error(`${dep} (needed by ${key}) is missing from the lockfile`);
      }
    }
    return seen;
  };
  const required = walk(false);
  const all = walk(true);

  const lockPackages = { '': { name: outName, dependencies } };
  for (const key of [...all].sort()) {
    const { dev: _dev, devOptional: _devOptional, optional: _optional, peer: _peer, ...entry } = packages[key];
    lockPackages[key] = required.has(key) ? entry : { ...entry, optional: true };
  }
  return {
    packageJson: { name: outName, private: true, dependencies },
    lockfile: { name: outName, lockfileVersion: 3, requires: true, packages: lockPackages },
  };
}

function main() {
  const [workspace, out, ...names] = process.argv.slice(2);
  if (!workspace || !out || names.length === 0) {
    console.error('usage: prune-lockfile.mjs <workspace-dir> <out-dir> <package> [<package>...]');
    process.exit(2);
  }
  const read = (f) => JSON.parse(fs.readFileSync(path.join(workspace, f), 'utf8'));
  const { packageJson, lockfile } = pruneLockfile(read('package.json'), read('package-lock.json'), names);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  fs.writeFileSync(path.join(out, 'package-lock.json'), `${JSON.stringify(lockfile, null, 2)}\n`);
  console.error(`pruned lockfile: ${Object.keys(lockfile.packages).length - 1} packages for ${names.join(', ')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
