// Builds Coffer Elements into dist/apps/elements (served under /elements/v1/ on an origin of its own):
//   elements.js, elements.mjs          the loader (classic script / ES module); not immutable
//   react.mjs, react.d.ts, elements.d.ts
//   frames/<type>.html, frames/controller.html   load assets/frame.<hash>.{js,css} with integrity; not immutable
//   assets/frame.<hash>.js, .css       content-hashed, immutable
//   demo/index.html, demo/demo.js, demo/demo.css
//   sri.json                           { "<relative path>": "sha384-…" } for every JS (and CSS) file
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const APP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(APP, '../..');
const OUT = path.resolve(ROOT, process.argv[2] ?? 'dist/apps/elements');
// gzipped budgets: the loader is on every checkout page, the frame script in every field
const BUDGET = { 'elements.js': 12 * 1024, 'elements.mjs': 12 * 1024, frame: 14 * 1024 };
const FRAME_TYPES = ['card', 'cardNumber', 'cardExpirationDate', 'cardVerificationCode', 'text', 'controller'];
const TITLES = {
  card: 'Card details',
  cardNumber: 'Card number',
  cardExpirationDate: 'Card expiration date',
  cardVerificationCode: 'Card security code',
  text: 'Secure text',
  controller: 'Coffer Elements',
};

const sri = (buf) => `sha384-${crypto.createHash('sha384').update(buf).digest('base64')}`;
const contentHash = (buf) => crypto.createHash('sha256').update(buf).digest('hex').slice(0, 12);
const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

const common = { bundle: true, minify: true, write: false, target: ['es2020'], legalComments: 'none', logLevel: 'warning' };

async function bundle(options) {
  const r = await esbuild.build({ ...common, ...options });
  return Buffer.from(r.outputFiles[0].contents);
}

function write(rel, buf) {
  const file = path.join(OUT, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, buf);
}

fs.rmSync(OUT, { recursive: true, force: true });
const hashes = {};

// the frame: one script and one stylesheet, content-hashed
const frameJs = await bundle({ entryPoints: [path.join(APP, 'src/frame/main.ts')], format: 'iife' });
const frameCss = await bundle({ entryPoints: [path.join(APP, 'src/frame/frame.css')], loader: { '.css': 'css' } });
const jsName = `assets/frame.${contentHash(frameJs)}.js`;
const cssName = `assets/frame.${contentHash(frameCss)}.css`;
write(jsName, frameJs);
write(cssName, frameCss);
hashes[jsName] = sri(frameJs);
hashes[cssName] = sri(frameCss);

const template = fs.readFileSync(path.join(APP, 'static/frame.html'), 'utf8');
for (const type of FRAME_TYPES) {
  const html = template
    .replaceAll('%TYPE%', type)
    .replaceAll('%TITLE%', TITLES[type])
    .replaceAll('%JS%', jsName)
    .replaceAll('%JS_SRI%', hashes[jsName])
    .replaceAll('%CSS%', cssName)
    .replaceAll('%CSS_SRI%', hashes[cssName]);
  write(`frames/${type}.html`, html);
}

// the loader, as a classic script and as a module
const iife = await bundle({ entryPoints: [path.join(APP, 'src/loader/iife.ts')], format: 'iife' });
const esm = await bundle({ entryPoints: [path.join(APP, 'src/loader/esm.ts')], format: 'esm' });
write('elements.js', iife);
write('elements.mjs', esm);
hashes['elements.js'] = sri(iife);
hashes['elements.mjs'] = sri(esm);

// the React components (React is the page's)
const react = await bundle({ entryPoints: [path.join(APP, 'src/react/index.ts')], format: 'esm', external: ['react'] });
write('react.mjs', react);
hashes['react.mjs'] = sri(react);
for (const f of ['elements.d.ts', 'react.d.ts']) fs.copyFileSync(path.join(APP, 'static', f), path.join(OUT, f));

// the demo checkout page
const demoHtml = fs.readFileSync(path.join(APP, 'demo/index.html'), 'utf8').replaceAll('%ELEMENTS_SRI%', hashes['elements.js']);
write('demo/index.html', demoHtml);
for (const f of ['demo.js', 'demo.css']) {
  const buf = fs.readFileSync(path.join(APP, 'demo', f));
  write(`demo/${f}`, buf);
  if (f.endsWith('.js')) hashes[`demo/${f}`] = sri(buf);
}

const sorted = Object.fromEntries(Object.entries(hashes).sort(([a], [b]) => a.localeCompare(b)));
write('sri.json', `${JSON.stringify(sorted, null, 2)}\n`);

const lines = [
  `elements.js   ${kb(iife.length)} (${kb(gz(iife))} gzipped)  ${hashes['elements.js']}`,
  `elements.mjs  ${kb(esm.length)} (${kb(gz(esm))} gzipped)  ${hashes['elements.mjs']}`,
  `react.mjs     ${kb(react.length)} (${kb(gz(react))} gzipped)  ${hashes['react.mjs']}`,
  `${jsName}  ${kb(frameJs.length)} (${kb(gz(frameJs))} gzipped)`,
];
process.stdout.write(`Coffer Elements → ${path.relative(ROOT, OUT)}\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
const over = [
  ['elements.js', gz(iife)],
  ['elements.mjs', gz(esm)],
  ['frame', gz(frameJs)],
].filter(([k, n]) => n > BUDGET[k]);
if (over.length > 0) {
  process.stderr.write(`over the size budget: ${over.map(([k, n]) => `${k} ${kb(n)} > ${kb(BUDGET[k])}`).join(', ')}\n`);
  process.exit(1);
}
