// The TypeScript types of the API reference (openapi-typescript), which the e2e test client (libs/testing) is typed
// with. `node tools/openapi/types.mjs write` regenerates them from docs/openapi.json; `check` fails when they are stale.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const source = path.join(root, 'docs/openapi.json');
const target = path.join(root, 'libs/testing/src/generated/openapi.ts');
const HEADER = '/* eslint-disable */\n// Generated from docs/openapi.json by `npm run openapi` (tools/openapi/types.mjs): do not edit.\n\n';

const document = JSON.parse(await readFile(source, 'utf8'));
const text = HEADER + astToString(await openapiTS(document));
const mode = process.argv[2] ?? 'check';
if (mode === 'write') {
  await writeFile(target, text);
  console.log(`wrote ${path.relative(root, target)}`);
} else {
  const current = await readFile(target, 'utf8').catch(() => '');
  if (current !== text) {
    console.error(`${path.relative(root, target)} is stale: run \`npm run openapi\``);
    process.exit(1);
  }
  console.log('openapi types are up to date');
}
