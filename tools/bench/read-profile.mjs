#!/usr/bin/env node
// Where a lone read's time goes inside the gateway and token-service (issue 35, goal 2b: a lone read under 0.6 ms).
// A throwaway system (a process per service) is started with the inspector open on both; after a warm-up, V8's CPU
// profiler samples them while ONE client reads the same token N times in a row. Each process's busy time per read is
// then split by where the code that ran was written: Coffer's own source files (through the bundle's source map),
// library packages, Node's own JavaScript, the garbage collector. What neither process spends (nats-server, PostgreSQL,
// the kernel's loopback, the wait between them) is the read's mean minus their busy time.
//
//   node tools/dev/runtime.mjs tools/bench/read-profile.mjs [--no-build] [--reads 3000] [--top 12] [--json]
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT, build, freePort, startEphemeralSystem } from '../dev/system.mjs';
import { httpClient } from './lib/http.mjs';
import { inspectorSession } from './lib/inspector.mjs';
import { percentile } from './lib/load.mjs';
import { selfTimeBySite } from './lib/profile-sites.mjs';

const { values: options } = parseArgs({
  options: {
    reads: { type: 'string', default: '3000' },
    top: { type: 'string', default: '12' },
    json: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
});
const READS = Number(options.reads);
const TOP = Number(options.top);
const json = options.json;
const log = (msg) => process.stderr.write(`[read-profile] ${msg}\n`);
const PROFILED = ['gateway', 'token-service'];

if (!options['no-build']) build(PROFILED);
const ports = Object.fromEntries(await Promise.all(PROFILED.map(async (s) => [s, await freePort()])));
log('starting a throwaway system (gateway and token-service with the inspector open) ...');
const sys = await startEphemeralSystem({
  // the rate limits out of the way, as the benchmark sets them
  env: { LOG_LEVEL: 'warn', RATE_LIMIT_PRIVATE: '100000000/10s', RATE_LIMIT_MANAGEMENT: '100000000/10s' },
  nodeArgs: (name, replica) => (ports[name] && replica === 0 ? [`--inspect=127.0.0.1:${ports[name]}`] : []),
});
try {
  const tenant = sys.createTenant('read-profile');
  const http = httpClient(sys.url, 1);
  const app = await http.call('POST', '/applications', {
    key: tenant.management_key,
    body: { name: 'reader', type: 'private', permissions: ['token:create', 'token:read'] },
  });
  const token = await http.call('POST', '/tokens', {
    key: app.key,
    body: { type: 'card', data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 } },
  });
  const read = () => http.call('GET', `/tokens/${token.id}`, { key: app.key });
  log('warming up (2,000 reads) ...');
  for (let i = 0; i < 2000; i++) await read();

  const sessions = Object.fromEntries(await Promise.all(PROFILED.map(async (s) => [s, await inspectorSession(ports[s])])));
  for (const s of Object.values(sessions)) {
    await s.send('Profiler.enable');
    await s.send('Profiler.setSamplingInterval', { interval: 100 });
    await s.send('Profiler.start');
  }
  log(`profiling ${READS} reads, one at a time ...`);
  const latencies = [];
  for (let i = 0; i < READS; i++) {
    const t0 = performance.now();
    await read();
    latencies.push(performance.now() - t0);
  }
  const profiles = {};
  for (const [service, s] of Object.entries(sessions)) profiles[service] = (await s.send('Profiler.stop')).profile;
  for (const s of Object.values(sessions)) s.close();
  await http.close();

  const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
  const sorted = [...latencies].sort((a, b) => a - b);
  const report = { reads: READS, mean_ms: mean, p50_ms: percentile(sorted, 50), p99_ms: percentile(sorted, 99), services: {} };
  for (const service of PROFILED) {
    const bundle = path.join(ROOT, 'dist/apps', service, 'main.js');
    const { busyMs, sites } = selfTimeBySite(profiles[service], {
      bundleUrl: pathToFileURL(bundle).href,
      sourceMap: JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')),
      app: service,
    });
    report.services[service] = {
      busy_ms_per_read: busyMs / READS,
      sites: sites.map(({ site, ms }) => ({ site, ms_per_read: ms / READS, share: ms / busyMs })),
    };
  }
  const busy = PROFILED.reduce((a, s) => a + report.services[s].busy_ms_per_read, 0);
  report.elsewhere_ms_per_read = mean - busy;

  if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const f = (x) => x.toFixed(3);
    const out = [`a lone read (GET /tokens/{id}, ${READS} in a row): mean ${f(mean)} ms, p50 ${f(report.p50_ms)} ms, p99 ${f(report.p99_ms)} ms`];
    for (const service of PROFILED) {
      const r = report.services[service];
      out.push('', `${service}: ${f(r.busy_ms_per_read)} ms of CPU per read (the JavaScript thread; its own self time by where the code was written)`);
      for (const s of r.sites.slice(0, TOP)) out.push(`  ${f(s.ms_per_read)} ms  ${(s.share * 100).toFixed(1).padStart(5)} %  ${s.site}`);
    }
    out.push(
      '',
      `elsewhere: ${f(report.elsewhere_ms_per_read)} ms per read (the mean less both processes' busy time: nats-server both ways, PostgreSQL's statement and commit, the loopback and the wake-ups between them)`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
  }
} finally {
  await sys.stop();
}
