#!/usr/bin/env node
// Which of Coffer's own source files one request runs through, from the HTTP route to the SQL (issue 36: "POST /tokens
// crosses about 28 files"). A throwaway system (as `npm start` runs it) is started with the inspector open on the
// gateway and token-service; after a warm-up, V8's precise coverage is reset, ONE request is made, and the functions
// that ran for it are mapped back through the bundles' source maps to the files they were written in. Libraries
// (node_modules) and generated code are left out: only what a maintainer reads counts.
//
//   node tools/dev/runtime.mjs tools/bench/request-files.mjs [--no-build] [--json]
//
// The request is POST /tokens (a card). The work each service does on its own afterwards (the audit sealer, the outbox
// relay in webhook-dispatcher) is not part of the request's path and is not counted: coverage is taken as soon as the
// reply arrives.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, build, freePort, startEphemeralSystem } from '../dev/system.mjs';
import { filesThatRan } from './lib/coverage-files.mjs';
import { httpClient } from './lib/http.mjs';
import { inspectorSession } from './lib/inspector.mjs';

const args = process.argv.slice(2);
const json = args.includes('--json');
const log = (msg) => process.stderr.write(`[request-files] ${msg}\n`);
const PROFILED = ['gateway', 'token-service'];

/** What ran in `service` for the request, by hand-written source file (lib/coverage-files.mjs). */
function filesOf(coverage, service) {
  const bundle = path.join(ROOT, 'dist/apps', service, 'main.js');
  return filesThatRan({
    coverage,
    bundleUrl: pathToFileURL(bundle).href,
    bundleText: fs.readFileSync(bundle, 'utf8'),
    sourceMap: JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')),
    app: service,
  });
}

if (!args.includes('--no-build')) build(PROFILED);
const ports = Object.fromEntries(await Promise.all(PROFILED.map(async (s) => [s, await freePort()])));
log('starting a throwaway system (gateway and token-service with the inspector open) ...');
const sys = await startEphemeralSystem({ nodeArgs: (name, replica) => (ports[name] && replica === 0 ? [`--inspect=127.0.0.1:${ports[name]}`] : []) });
try {
  const tenant = sys.createTenant('request-files');
  const http = httpClient(sys.url, 1);
  const app = await http.call('POST', '/applications', {
    key: tenant.management_key,
    body: { name: 'writer', type: 'private', permissions: ['token:create'] },
  });
  const create = () =>
    http.call('POST', '/tokens', { key: app.key, body: { type: 'card', data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 } } });
  const sessions = Object.fromEntries(await Promise.all(PROFILED.map(async (s) => [s, await inspectorSession(ports[s])])));
  for (const s of Object.values(sessions)) {
    await s.send('Profiler.enable');
    await s.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  }
  // every lazy path (prepared statements, caches, keys) taken once before the one that counts
  for (let i = 0; i < 5; i++) await create();
  await new Promise((r) => setTimeout(r, 1500));
  for (const s of Object.values(sessions)) await s.send('Profiler.takePreciseCoverage'); // resets the counts
  await create();
  const report = {};
  for (const service of PROFILED) report[service] = filesOf(await sessions[service].send('Profiler.takePreciseCoverage'), service);
  for (const s of Object.values(sessions)) s.close();
  await http.close();

  const all = new Set(PROFILED.flatMap((s) => [...report[s].keys()]));
  if (json) {
    const out = { request: 'POST /tokens', files: all.size, byService: {} };
    for (const s of PROFILED) out.byService[s] = Object.fromEntries([...report[s]].map(([f, fns]) => [f, [...fns].sort()]));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    process.stdout.write(
      `POST /tokens runs through ${all.size} of Coffer's own source files (gateway and token-service; libraries and generated code aside)\n`,
    );
    for (const s of PROFILED) {
      process.stdout.write(`\n${s}: ${report[s].size} files\n`);
      for (const [file, fns] of [...report[s]].sort(([a], [b]) => a.localeCompare(b))) process.stdout.write(`  ${file}  (${[...fns].sort().join(', ')})\n`);
    }
  }
} finally {
  await sys.stop();
}
