#!/usr/bin/env node
// Which of Coffer's own source files one request runs through, from the HTTP route to the SQL (issue 36: "POST /tokens
// crosses about 28 files"). A throwaway system (as `npm start` runs it) is started with the inspector open on the
// gateway and token-service, and after a warm-up two things are measured, each on ONE request:
// - the call path from the route to the SQL: breakpoints where the gateway writes the request to the bus and where
//   token-service sends a statement to PostgreSQL; at each, the stack and its asynchronous parents (lib/call-chain.mjs)
//   give the files a reader follows from the route's handler to the statement;
// - every file with code that ran: V8's precise coverage is reset, the request made, and the functions that ran for it
//   mapped back through the bundles' source maps — the path plus every check, helper and library of ours it called.
// Libraries (node_modules) and generated code are left out of both: only what a maintainer reads counts.
//
//   node tools/dev/runtime.mjs tools/bench/request-files.mjs [--no-build] [--json]
//
// The request is POST /tokens (a card). The work each service does on its own afterwards (the audit sealer, the outbox
// relay in webhook-dispatcher) is not part of the request's path and is not counted: coverage is taken as soon as the
// reply arrives, and the breakpoints are removed 100 ms after it (the sealer waits AUDIT_SEAL_INTERVAL_MS, 1 s).
import fs from 'node:fs';
import path from 'node:path';
import { SourceMap } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ROOT, build, freePort, startEphemeralSystem } from '../dev/system.mjs';
import { callPath, pausedFrames } from './lib/call-chain.mjs';
import { filesThatRan } from './lib/coverage-files.mjs';
import { httpClient } from './lib/http.mjs';
import { inspectorSession } from './lib/inspector.mjs';
import { siteOf } from './lib/profile-sites.mjs';

const args = process.argv.slice(2);
const json = args.includes('--json');
const log = (msg) => process.stderr.write(`[request-files] ${msg}\n`);
const PROFILED = ['gateway', 'token-service'];

const bundleOf = (service) => path.join(ROOT, 'dist/apps', service, 'main.js');

/** What ran in `service` for the request, by hand-written source file (lib/coverage-files.mjs). */
function filesOf(coverage, service) {
  const bundle = bundleOf(service);
  return filesThatRan({
    coverage,
    bundleUrl: pathToFileURL(bundle).href,
    bundleText: fs.readFileSync(bundle, 'utf8'),
    sourceMap: JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')),
    app: service,
  });
}

/**
 * Where each service's part of the path ends (`breakOn`: the function a breakpoint stops at, `to`: its library) and
 * where it starts (`from`: the library that hands the request to Coffer's code): in the gateway, from Nest's router
 * calling the route's handler to the NATS client publishing the request (`via` the RPC client: the rate limiter's
 * guard publishes too, before the handler, when it renews its lease); in token-service, from the NATS client
 * delivering it to pg sending a statement (the token's INSERT, and the outbox's wake-up after its commit).
 */
const MOMENTS = {
  gateway: { breakOn: "require('node:net').Socket.prototype.write", from: '@nestjs/core', via: 'libs/bus/src/rpc-client.ts', to: 'nats' },
  'token-service': { breakOn: "require('pg').Client.prototype.query", from: 'nats', to: 'pg' },
};

/** The call paths (lib/call-chain.mjs callPath) of each service's moments during one `request()`. */
async function callPathsOf(sessions, request) {
  const paths = Object.fromEntries(PROFILED.map((s) => [s, []]));
  const breakpoints = {};
  for (const service of PROFILED) {
    const session = sessions[service];
    const bundle = bundleOf(service);
    const where = { bundleUrl: pathToFileURL(bundle).href, map: new SourceMap(JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8'))), app: service };
    // the paused frames name their script by id only: its URL came with the script's `scriptParsed`
    const scripts = new Map();
    session.on('Debugger.scriptParsed', (script) => scripts.set(script.scriptId, script.url));
    session.on('Debugger.paused', (paused) => {
      const found = callPath(
        pausedFrames(paused, scripts).map((frame) => siteOf(frame, where)),
        MOMENTS[service],
      );
      if (found) paths[service].push(found);
      void session.send('Debugger.resume');
    });
    await session.send('Runtime.enable');
    await session.send('Debugger.enable');
    await session.send('Debugger.setAsyncCallStackDepth', { maxDepth: 64 });
    const { result } = await session.send('Runtime.evaluate', { expression: MOMENTS[service].breakOn, includeCommandLineAPI: true });
    if (!result.objectId) throw new Error(`${service}: ${MOMENTS[service].breakOn} is not a function there`);
    breakpoints[service] = (await session.send('Debugger.setBreakpointOnFunctionCall', { objectId: result.objectId })).breakpointId;
  }
  await request();
  await new Promise((r) => setTimeout(r, 100));
  for (const service of PROFILED) {
    await sessions[service].send('Debugger.removeBreakpoint', { breakpointId: breakpoints[service] });
    await sessions[service].send('Debugger.disable');
  }
  return paths;
}

/** One service's files on the path (each once, in the order the first path met them) and those before it. */
function joined(paths) {
  return { path: [...new Set(paths.flatMap((p) => p.path))], before: [...new Set(paths.flatMap((p) => p.before))], moments: paths.length };
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
  for (const s of Object.values(sessions)) await s.send('Profiler.stopPreciseCoverage');
  await new Promise((r) => setTimeout(r, 1500));
  const paths = await callPathsOf(sessions, create);
  for (const s of Object.values(sessions)) s.close();
  await http.close();

  const chain = Object.fromEntries(PROFILED.map((s) => [s, joined(paths[s])]));
  for (const s of PROFILED) if (!chain[s].moments) throw new Error(`${s}: no breakpoint of its path was hit (${MOMENTS[s].breakOn})`);
  const onPath = new Set(PROFILED.flatMap((s) => chain[s].path));
  const all = new Set(PROFILED.flatMap((s) => [...report[s].keys()]));
  if (json) {
    const out = { request: 'POST /tokens', path: { files: onPath.size, byService: chain }, files: all.size, byService: {} };
    for (const s of PROFILED) out.byService[s] = Object.fromEntries([...report[s]].map(([f, fns]) => [f, [...fns].sort()]));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    const write = (line) => process.stdout.write(`${line}\n`);
    write(`POST /tokens: ${onPath.size} of Coffer's own source files on the call path from the route's handler to the SQL`);
    for (const s of PROFILED) {
      write(`\n${s}: ${chain[s].path.length} files (${MOMENTS[s].from} → ${MOMENTS[s].to}, ${chain[s].moments} ${chain[s].moments === 1 ? 'stop' : 'stops'})`);
      for (const file of chain[s].path) write(`  ${file}`);
      if (chain[s].before.length) write(`  before the route's handler: ${chain[s].before.join(', ')}`);
    }
    write(`\nPOST /tokens runs code in ${all.size} of Coffer's own source files (gateway and token-service; libraries and generated code aside)`);
    for (const s of PROFILED) {
      write(`\n${s}: ${report[s].size} files`);
      for (const [file, fns] of [...report[s]].sort(([a], [b]) => a.localeCompare(b))) write(`  ${file}  (${[...fns].sort().join(', ')})`);
    }
  }
} finally {
  await sys.stop();
}
