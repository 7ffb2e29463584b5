// Every Node program's webpack build must find its entry files wherever the workspace is checked out.
//
// NxAppWebpackPlugin takes an additional entry's path as relative to the project only when it starts with './'; any
// other path it resolves from the workspace root, and webpack then maps a path that starts with '/' back under its
// context. So '../../libs/x.ts' from apps/app built in /work/main (two folders below /) became '/libs/x.ts' and then
// /work/main/libs/x.ts by luck, and in /check/work/main it became /check/libs/x.ts, which does not exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

/** The options each program's webpack.config.js gives NxAppWebpackPlugin, caught by a stand-in for the plugin. */
function pluginOptionsOf(configFile) {
  const pluginId = require.resolve('@nx/webpack/app-plugin', { paths: [workspaceRoot] });
  const caught = [];
  const standIn = new Module(pluginId);
  standIn.exports = {
    NxAppWebpackPlugin: class {
      constructor(options) {
        caught.push(options);
      }
    },
  };
  standIn.loaded = true;
  const saved = require.cache[pluginId];
  require.cache[pluginId] = standIn;
  try {
    delete require.cache[require.resolve(configFile)];
    delete require.cache[require.resolve(path.join(workspaceRoot, 'tools/build/service-webpack.cjs'))];
    require(configFile);
  } finally {
    if (saved) require.cache[pluginId] = saved;
    else delete require.cache[pluginId];
    delete require.cache[require.resolve(path.join(workspaceRoot, 'tools/build/service-webpack.cjs'))];
  }
  assert.equal(caught.length, 1, `${configFile} builds with one NxAppWebpackPlugin`);
  return caught[0];
}

/** Where the plugin looks for an entry when the workspace is at `root` (its own rule, see above). */
function entryFileAt(root, projectRoot, entryPath) {
  if (entryPath.startsWith('./')) return path.resolve(root, path.join(projectRoot, entryPath));
  if (path.isAbsolute(entryPath)) return entryPath;
  return path.resolve(root, entryPath);
}

const programs = ['apps', 'tools']
  .flatMap((top) => fs.readdirSync(path.join(workspaceRoot, top)).map((name) => path.join(top, name)))
  .filter((dir) => fs.existsSync(path.join(workspaceRoot, dir, 'webpack.config.js')))
  .filter((dir) => /serviceWebpackConfig\(/.test(fs.readFileSync(path.join(workspaceRoot, dir, 'webpack.config.js'), 'utf8')));

test('the Node programs are found', () => {
  assert.ok(programs.includes(path.join('apps', 'reactor-service')), programs.join(', '));
  assert.ok(programs.length >= 6, programs.join(', '));
});

for (const projectRoot of programs) {
  test(`${projectRoot}: every additional entry is a file of this checkout`, () => {
    const options = pluginOptionsOf(path.join(workspaceRoot, projectRoot, 'webpack.config.js'));
    for (const { entryName, entryPath } of options.additionalEntryPoints ?? []) {
      const file = entryFileAt(workspaceRoot, projectRoot, entryPath);
      assert.ok(file.startsWith(workspaceRoot + path.sep), `${entryName}: ${entryPath} is looked for at ${file}`);
      assert.ok(fs.existsSync(file), `${entryName}: ${file} exists`);
    }
  });
}
