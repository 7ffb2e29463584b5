// Elements benchmark (docs/elements.md, "Budgets"): what the hosted card fields cost a checkout page, in Debian's
// Chromium (headless, through playwright-core) on this machine.
//   - the loader's size, raw and gzipped (what every checkout downloads first), and the frame script's;
//   - time to `ready`: from navigation until a mounted card element says it is ready (a new browser context per
//     sample: nothing cached), against a bare page with three plain inputs served by node:http (the browser's own
//     cost) measured in alternating samples;
//   - time to a token: from the shopper's "pay" until the page holds the token, against the same POST /tokens made
//     with fetch from a page (the API's own cost), alternating too.
//
//   node tools/dev/runtime.mjs tools/bench/elements.mjs [--samples 20] [--no-build]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { APPS, ROOT, build, startEphemeralSystem } from '../dev/system.mjs';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '20' },
    'no-build': { type: 'boolean', default: false },
  },
});
const SAMPLES = Number(values.samples);
const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const NUMBER = '4242424242424242';
const log = (m) => process.stderr.write(`[bench:elements] ${m}\n`);

/** The merchant's pages, on another site (localhost) than Coffer's origins (127.0.0.1). */
function merchantServer(elementsUrl, apiUrl, key) {
  const pages = {
    '/elements': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>checkout</title>
<script src="${elementsUrl}/elements/v1/elements.js"></script></head><body><main><div id="card"></div><button id="pay">Pay</button></main>
<script>
window.ready = (async () => {
  const coffer = await CofferElements.init(${JSON.stringify(key)});
  const card = coffer.createElement('card');
  await card.mount('#card');
  window.pay = () => coffer.tokens.create({ type: 'card', data: card });
  return performance.now();
})();
</script></body></html>`,
    '/bare': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head><body><main>
<label>Card number <input id="n" autocomplete="cc-number"></label><label>Expiry <input id="e" autocomplete="cc-exp"></label>
<label>CVC <input id="c" autocomplete="cc-csc"></label><button id="pay">Pay</button></main>
<script>
window.ready = Promise.resolve(performance.now());
window.pay = () => fetch(${JSON.stringify(`${apiUrl}/tokens`)}, { method: 'POST', headers: { 'content-type': 'application/json', 'svc-api-key': ${JSON.stringify(key)} },
  body: JSON.stringify({ type: 'card', data: { number: document.getElementById('n').value, expiration_month: 12, expiration_year: 2040, cvc: document.getElementById('c').value } }) }).then((r) => r.json());
</script></body></html>`,
  };
  const server = http.createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ base: `http://localhost:${server.address().port}`, close: () => server.close() })),
  );
}

/** One first visit: ms from navigation to ready, and from "pay" to the token. */
async function sample(browser, url, elements) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(url);
    await page.evaluate(() => window.ready);
    const ready = Date.now() - started;
    if (elements) {
      const frame = await (await page.waitForSelector('#card iframe')).contentFrame();
      await frame.locator('#input-cardNumber').fill(NUMBER);
      await frame.locator('#input-cardExpirationDate').fill('12/40');
      await frame.locator('#input-cardVerificationCode').fill('123');
    } else {
      await page.locator('#n').fill(NUMBER);
      await page.locator('#e').fill('12/40');
      await page.locator('#c').fill('123');
    }
    const paying = Date.now();
    const token = await page.evaluate(() => window.pay());
    if (!token?.id) throw new Error(`no token: ${JSON.stringify(token)}`);
    return { ready, token: Date.now() - paying };
  } finally {
    await context.close();
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const summary = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: Math.round(percentile(s, 50)), p95: Math.round(percentile(s, 95)) };
};

async function main() {
  if (!fs.existsSync(CHROMIUM)) {
    log(`${CHROMIUM} is missing: installing Debian's chromium`);
    execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium'], { stdio: 'inherit' });
  }
  if (!values['no-build']) build([...APPS, 'admin']);
  const dist = path.join(ROOT, 'dist/apps/elements');
  const sizes = ['elements.js', ...fs.readdirSync(path.join(dist, 'assets')).map((f) => `assets/${f}`)].map((f) => {
    const body = fs.readFileSync(path.join(dist, f));
    return { file: f, raw: body.length, gzipped: gzipSync(body, { level: 9 }).length };
  });
  const sys = await startEphemeralSystem({ env: { LOG_LEVEL: 'warn', RATE_LIMIT_PUBLIC: '100000/min' } });
  const made = JSON.parse(
    execFileSync(process.execPath, [path.join(ROOT, 'dist/tools/admin/main.js'), 'tenants', 'create', '--name', 'bench-elements', '--json'], {
      env: { ...process.env, ...sys.env },
      encoding: 'utf8',
    }),
  );
  const app = await fetch(`${sys.url}/applications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'svc-api-key': made.management_key },
    body: JSON.stringify({ name: 'checkout', type: 'public', permissions: ['token:create'] }),
  }).then((r) => r.json());
  const merchant = await merchantServer(sys.elementsUrl, sys.url, app.key);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: JSON.parse(fs.readFileSync(path.join(ROOT, 'tools/dev/chromium-args.json'), 'utf8')).args,
  });
  try {
    // the browser's own first navigation (its renderer and network service starting) is nobody's cost
    await sample(browser, `${merchant.base}/bare`, false);
    await sample(browser, `${merchant.base}/elements`, true);
    const times = { elements: [], bare: [] };
    for (let i = 0; i < SAMPLES; i++) {
      const order = i % 2 ? ['bare', 'elements'] : ['elements', 'bare'];
      for (const which of order) times[which].push(await sample(browser, `${merchant.base}/${which}`, which === 'elements'));
    }
    console.log('sizes:');
    for (const s of sizes) console.log(`  ${s.file.padEnd(28)} ${(s.raw / 1024).toFixed(1)} kB, ${(s.gzipped / 1024).toFixed(1)} kB gzipped`);
    const er = summary(times.elements.map((t) => t.ready));
    const br = summary(times.bare.map((t) => t.ready));
    const et = summary(times.elements.map((t) => t.token));
    const bt = summary(times.bare.map((t) => t.token));
    console.log(`${SAMPLES} first visits each (Chromium ${browser.version()}, localhost):`);
    console.log(
      `  to ready   Elements card p50 ${er.p50} ms p95 ${er.p95} ms | bare inputs p50 ${br.p50} ms p95 ${br.p95} ms | ratio p50 ${(er.p50 / Math.max(1, br.p50)).toFixed(1)} x`,
    );
    console.log(
      `  to a token Elements      p50 ${et.p50} ms p95 ${et.p95} ms | page fetch  p50 ${bt.p50} ms p95 ${bt.p95} ms | ratio p50 ${(et.p50 / Math.max(1, bt.p50)).toFixed(1)} x`,
    );
  } finally {
    await browser.close();
    merchant.close();
    await sys.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
