// Console benchmark (docs/console.md, "Quality"): how long the web console's first page takes until it can be used —
// from navigation to a visible "Management key" field, the sign-in form — in Debian's Chromium (headless, through
// playwright-core) on this machine. Every sample is a first visit: a new browser context, so nothing is cached.
// Baseline, measured in the same run and in alternating samples: a bare page with the same form served by node:http,
// which shows what the browser and the machine cost by themselves. Target: p95 under 1 s on localhost.
//
//   node tools/dev/runtime.mjs tools/bench/console.mjs [--samples 20] [--no-build]
//   (BASE_URL: an already-running Coffer instead of a throwaway system)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
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
const TARGET_MS = 1000;
const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const log = (m) => process.stderr.write(`[bench:console] ${m}\n`);

const BARE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head>
<body><main><form><label for="k">Management key</label><input id="k" type="password"><button>Sign in</button></form></main></body></html>`;

function bareServer() {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(BARE_PAGE));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })),
  );
}

/** One first visit: milliseconds from navigation until the sign-in form's key field is visible. */
async function firstVisit(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(url);
    await page.getByLabel('Management key').waitFor({ timeout: 30_000 });
    return performance.now() - started;
  } finally {
    await context.close();
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const summary = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: Math.round(percentile(s, 50)), p95: Math.round(percentile(s, 95)), max: Math.round(s.at(-1)) };
};

async function main() {
  if (!fs.existsSync(CHROMIUM)) {
    log(`${CHROMIUM} is missing: installing Debian's chromium`);
    execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium'], { stdio: 'inherit' });
  }
  let sys;
  let consoleUrl;
  if (process.env.BASE_URL) consoleUrl = `${process.env.BASE_URL.replace(/\/$/, '')}/console/`;
  else {
    if (!values['no-build']) build([...APPS, 'admin']);
    sys = await startEphemeralSystem({ env: { LOG_LEVEL: 'warn' } });
    consoleUrl = `${sys.consoleUrl}/console/`;
  }
  const bare = await bareServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: JSON.parse(fs.readFileSync(path.join(ROOT, 'tools/dev/chromium-args.json'), 'utf8')).args,
  });
  try {
    // the browser's own first navigation (its renderer and network service starting) is not the console's cost
    await firstVisit(browser, bare.url);
    await firstVisit(browser, consoleUrl);
    const times = { console: [], bare: [] };
    for (let i = 0; i < SAMPLES; i++) {
      const order = i % 2 ? ['bare', 'console'] : ['console', 'bare'];
      for (const which of order) times[which].push(await firstVisit(browser, which === 'console' ? consoleUrl : bare.url));
    }
    const c = summary(times.console);
    const b = summary(times.bare);
    console.log(`first visit until the sign-in form is usable, ${SAMPLES} samples each (Chromium ${browser.version()}):`);
    console.log(`  console     p50 ${c.p50} ms  p95 ${c.p95} ms  max ${c.max} ms`);
    console.log(`  bare page   p50 ${b.p50} ms  p95 ${b.p95} ms  max ${b.max} ms   (the browser's own cost)`);
    console.log(`  ratio p50 ${(c.p50 / Math.max(1, b.p50)).toFixed(1)} x the bare page`);
    console.log(`console first page p95 ${c.p95} ms (target < ${TARGET_MS} ms): ${c.p95 < TARGET_MS ? 'met' : 'not met'}`);
  } finally {
    await browser.close();
    bare.close();
    await sys?.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
