// The TypeScript types of the API reference (openapi-typescript), written twice from docs/openapi.json: for the e2e
// test client (libs/testing) and for the web console (apps/console), which may import no workspace lib but those tagged
// scope:console (eslint.config.mjs), so it has its own copy. `node tools/openapi/types.mjs write` regenerates both;
// `check` fails when either is stale.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const source = path.join(root, 'docs/openapi.json');
const HEADER = '/* eslint-disable */\n// Generated from docs/openapi.json by `npm run openapi` (tools/openapi/types.mjs): do not edit.\n\n';

const TARGETS = [
  // the e2e client: openapi-typescript's defaults; .prettierignore leaves the file as generated
  { file: 'libs/testing/src/generated/openapi.ts', options: {}, format: false },
  {
    file: 'apps/console/src/generated/openapi.ts',
    // the console sends request bodies: a member with a default is one it may leave out (defaultNonNullable: false;
    // only request schemas have defaults, so replies are typed the same), and a free-form object (a proxy's transform)
    // holds any members (emptyObjectsUnknown). Prettier checks the console, so the file is formatted as the code is.
    options: { defaultNonNullable: false, emptyObjectsUnknown: true },
    format: true,
  },
];

const document = JSON.parse(await readFile(source, 'utf8'));

async function render({ file, options, format }) {
  const text = HEADER + astToString(await openapiTS(document, options));
  if (!format) return text;
  const target = path.join(root, file);
  return prettier.format(text, { ...(await prettier.resolveConfig(target)), filepath: target });
}

const mode = process.argv[2] ?? 'check';
let stale = false;
for (const target of TARGETS) {
  const text = await render(target);
  const file = path.join(root, target.file);
  if (mode === 'write') {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    console.log(`wrote ${target.file}`);
  } else if ((await readFile(file, 'utf8').catch(() => '')) !== text) {
    console.error(`${target.file} is stale: run \`npm run openapi\``);
    stale = true;
  }
}
if (stale) process.exit(1);
if (mode !== 'write') console.log('openapi types are up to date');
