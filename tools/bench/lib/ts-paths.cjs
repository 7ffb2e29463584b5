// Lets ts-node resolve the workspace's @coffer/* imports (tsconfig.base.json `paths`) for a benchmark run from
// sources: tsconfig-paths/register finds no paths there, since the base config has no baseUrl.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { register } = require('tsconfig-paths');

const root = path.resolve(__dirname, '../../..');
const { config } = ts.readConfigFile(path.join(root, 'tsconfig.base.json'), (file) => fs.readFileSync(file, 'utf8'));
register({ baseUrl: root, paths: config.compilerOptions.paths });
