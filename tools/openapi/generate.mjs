// `npm run openapi`: rewrites the committed API reference docs/openapi.json from the gateway's controllers and
// contracts (the gateway's openapi spec builds the document without starting any service), then the TypeScript
// types the e2e test client is checked against (libs/testing/src/generated/openapi.ts) and the web console's API
// helpers are typed with (apps/console/src/generated/openapi.ts): tools/openapi/types.mjs.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (cmd, args, env = {}) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

// only the snapshot test: the types are written next, from the new snapshot
run(
  process.execPath,
  [
    path.join(root, 'node_modules/jest/bin/jest.js'),
    '-c',
    'apps/gateway/jest.config.cts',
    'apps/gateway/src/docs/openapi.spec.ts',
    '-t',
    'is what the committed snapshot',
  ],
  {
    UPDATE_OPENAPI_SNAPSHOT: '1',
  },
);
run(process.execPath, [path.join(root, 'tools/openapi/types.mjs'), 'write']);
