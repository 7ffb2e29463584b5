#!/usr/bin/env node
// `npm run test:faults [-- --ci] [--only <name,...>] [--no-build] [--overload-seconds N] [--no-overload]
// [--no-noisy | --noisy] [--noisy-seconds N]`:
// the fault-injection suite (docs/operations.md). Starts a throwaway system on a private PostgreSQL, runs a tracked
// load on loopback, injects the faults of scenarios.mjs one after the other, then an overload at twice the measured
// capacity, verifies every acknowledged write and every webhook, then (once that system is stopped) the long
// noisy-neighbour run (noisy-neighbour.mjs), prints the figures and writes them to tmp/faults/latest.json. Exit code 1
// when an assertion fails. `--ci` is the bounded run of `npm test` (< 4 min): it leaves out the noisy-neighbour phase,
// whose bounded profile `npm test` has already run among the end-to-end tests (`--noisy` adds it anyway).
import '../dev/runtime.mjs'; // first: re-executes this command on the pinned Node (docs/runtime.md)
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { APPS, ROOT, build } from '../dev/system.mjs';
import { latencyFigures, verifyTokenWrites, verifyWebhooks } from './checks.mjs';
import { FaultSystem } from './fault-system.mjs';
import { GatewayClient, LoadGenerator, Recorder } from './load-generator.mjs';
import { noisyNeighbourAssertions, runNoisyNeighbour } from './noisy-neighbour.mjs';
import { measureCapacity, overload } from './overload.mjs';
import { printReport, writeReport } from './report.mjs';
import { faultScenarios, summarizeStatuses } from './scenarios.mjs';
import { WebhookReceiver } from './webhook-receiver.mjs';

/**
 * The longest a create may take at the gateway: authentication (2 s RPC deadline) + the create (5 s RPC deadline)
 * + 3 s for the gateway's own database work and a loaded machine. Slower means a deadline was not enforced.
 */
const CREATE_LIMIT_MS = 10_000;
/** React (asynchronous) is accepted under the react deadline (15 s) + authentication + margin. */
const REACT_LIMIT_MS = 20_000;

const { values: opts } = parseArgs({
  options: {
    ci: { type: 'boolean', default: false },
    only: { type: 'string' },
    build: { type: 'boolean', default: true },
    'no-build': { type: 'boolean', default: false },
    overload: { type: 'boolean', default: true },
    'no-overload': { type: 'boolean', default: false },
    'overload-seconds': { type: 'string' },
    clients: { type: 'string' },
    noisy: { type: 'boolean', default: false },
    'no-noisy': { type: 'boolean', default: false },
    'noisy-seconds': { type: 'string' },
  },
});
const ci = opts.ci;
const log = (msg) => process.stderr.write(`[faults] ${msg}\n`);

async function setUp(sys, receiverUrl) {
  const { management_key: mk } = sys.createTenant('faults');
  const admin = new GatewayClient(sys.url);
  const must = async (method, p, body, status) => {
    const res = await admin.send(method, p, { key: mk, body });
    if (res.status !== status) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const app = await must('POST', '/applications', { name: 'fault load', type: 'private', permissions: ['token:create', 'token:read', 'token:use'] }, 201);
  const formula = await must(
    'POST',
    '/reactor-formulas',
    {
      name: 'echo key',
      type: 'private',
      code: 'module.exports = async function (req) { return { raw: { key: req.args.key } }; };',
      request_parameters: [{ name: 'key', type: 'string' }],
    },
    201,
  );
  const reactor = await must('POST', '/reactors', { name: 'echo key', configuration: {}, formula: { id: formula.id } }, 201);
  await admin.close();
  return { key: app.key, reactorId: reactor.id, callbackUrl: receiverUrl };
}

async function main() {
  const started = Date.now();
  if (opts.build && !opts['no-build']) build([...APPS, 'admin']);
  const receiver = new WebhookReceiver();
  await receiver.start();
  fs.rmSync(path.join(ROOT, 'tmp', 'faults', 'logs'), { recursive: true, force: true });
  log('starting the system (private PostgreSQL, NATS, the six services behind TCP proxies) ...');
  const sys = await FaultSystem.start({
    logDir: path.join(ROOT, 'tmp', 'faults', 'logs'),
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // the load is one application: the per-application rate limit is not what is under test
      RATE_LIMIT_PRIVATE: '100000000/10s',
      ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '200ms,400ms,800ms,1s,2s,2s,2s,2s,2s,2s',
      WEBHOOK_POLL_INTERVAL_MS: '250',
      REACTOR_JOB_POLL_INTERVAL_MS: '250',
      REACTOR_JOB_LEASE_SLACK_MS: '2000',
    },
  });
  const assertions = [];
  const check = (name, ok, figure) => {
    assertions.push({ name, ok: Boolean(ok), figure });
    log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${figure}`);
  };
  const report = { started_at: started, mode: ci ? 'ci' : 'full', scenarios: [], assertions };
  try {
    const runId = randomBytes(6).toString('hex');
    const { key, reactorId, callbackUrl } = await setUp(sys, receiver.url);
    const recorder = new Recorder();
    const client = new GatewayClient(sys.url);
    const load = new LoadGenerator({
      client,
      recorder,
      key,
      runId,
      clients: Number(opts.clients ?? (ci ? 4 : 8)),
      reactorId,
      callbackUrl,
      asyncEveryMs: ci ? 400 : 250,
    });
    const ctx = { sys, client, load, recorder, key, runId, check };

    const only = opts.only?.split(',').map((s) => s.trim().toLowerCase());
    const selected = faultScenarios({ ci }).filter((s) => !only || only.some((o) => s.name.toLowerCase().includes(o)));
    if (selected.length) {
      load.start();
      for (const scenario of selected) {
        recorder.phase = scenario.name;
        const t = Date.now();
        log(`scenario: ${scenario.name}`);
        let faults = 0;
        try {
          ({ faults } = await scenario.run(ctx));
        } catch (err) {
          check(`scenario "${scenario.name}" runs`, false, err.message);
        }
        const dead = sys.dead();
        if (dead.length) {
          check(`no service dies during "${scenario.name}"`, false, `${dead.join(', ')} ended`);
          // started again so the later scenarios still test something
          for (const name of dead) await sys.restart(name).catch(() => undefined);
        }
        const attempts = recorder.attemptsIn(scenario.name);
        const ok = attempts.filter((a) => a.status === 201 || a.status === 202);
        report.scenarios.push({
          scenario: scenario.name,
          faults,
          requests: attempts.length,
          ok: ok.length,
          failed: attempts.length - ok.length,
          statuses: summarizeStatuses(attempts.filter((a) => a.status !== 201 && a.status !== 202)),
          max_ms: Math.round(latencyFigures(attempts, CREATE_LIMIT_MS).max),
          over_deadline:
            latencyFigures(
              attempts.filter((a) => a.kind === 'token' || a.kind === 'token-plain'),
              CREATE_LIMIT_MS,
            ).over +
            latencyFigures(
              attempts.filter((a) => a.kind === 'react'),
              REACT_LIMIT_MS,
            ).over,
          seconds: +((Date.now() - t) / 1000).toFixed(1),
        });
      }
      recorder.phase = 'draining';
      await load.stop();
    }

    const wantOverload = opts.overload && !opts['no-overload'] && (!only || only.includes('overload'));
    if (wantOverload) {
      recorder.phase = 'capacity';
      await measureCapacity({ url: sys.url, load, seconds: 3 }); // warm-up: JIT, connection pools
      const capacity = await measureCapacity({ url: sys.url, load, seconds: ci ? 5 : 10 });
      report.capacity_per_s = Math.round(capacity);
      const seconds = Number(opts['overload-seconds'] ?? (ci ? 15 : 60));
      const rate = Math.max(20, Math.round(2 * capacity));
      log(`capacity ${Math.round(capacity)} creates/s: offering ${rate}/s for ${seconds} s`);
      recorder.phase = 'overload';
      const o = await overload({ sys, url: sys.url, load, recorder, rate, seconds });
      o.over_deadline = latencyFigures(recorder.attemptsIn('overload'), CREATE_LIMIT_MS).over;
      report.overload = o;
      check(
        'overload: every 503 carries Retry-After and a problem document',
        o.unavailable_503 === o.unavailable_with_retry_after_and_problem,
        `${o.unavailable_with_retry_after_and_problem} of ${o.unavailable_503}`,
      );
      // The bounded CI run shares a noisy machine and lasts 15 s: a neighbour stealing CPU mid-run moves the capacity
      // the offered rate was computed from. It tolerates a few deadline misses and not-ready answers (never a probe
      // left unanswered); the full run (`npm run test:faults`) holds the strict bounds.
      const slack = ci ? 0.05 : 0.01;
      const unanswered = o.health_probe_statuses.filter((status) => status === 0).length;
      check(
        'overload: the excess is refused fast (503) instead of queued to the deadline',
        o.unavailable_503 > 0 && o.p50_503_ms < 1_000 && (o.statuses[504] ?? 0) <= o.requests * slack,
        `503 ${o.unavailable_503} (p50 ${o.p50_503_ms} ms), 504 ${o.statuses[504] ?? 0} of ${o.requests} (allowed ${slack * 100} %)`,
      );
      check(
        'overload: health and readiness keep answering',
        ci ? unanswered === 0 && o.health_probes_failed <= o.health_probes * slack : o.health_probes_failed === 0,
        `${o.health_probes_failed} of ${o.health_probes} probes failed ${o.health_probe_failures.join(', ')} (${unanswered} unanswered), slowest ${o.health_probe_max_ms} ms`,
      );
      check('overload: the system recovers afterwards', (await sys.waitAllReady(30_000).catch(() => Infinity)) !== Infinity, 'all services ready');
    }

    log('verifying every acknowledged write and webhook ...');
    const tokens = await verifyTokenWrites({ client, key, runId, recorder, sampleById: ci ? 50 : 200 });
    check(
      'every acknowledged write is readable with its data',
      tokens.lost.length === 0 && tokens.wrongData.length === 0 && tokens.unreadable === 0,
      `${tokens.acknowledged} acknowledged (${tokens.plain} sent once without an idempotency key), ${tokens.lost.length} lost, ${tokens.wrongData.length} with other data, ${tokens.unreadable} of ${tokens.sampled} unreadable by id`,
    );
    check(
      'no write is duplicated: not by retries with an idempotency key, not by a group commit',
      tokens.duplicates === 0,
      `${tokens.duplicates} duplicate tokens over ${tokens.duplicatedKeys.length} keys (${tokens.orphans} written but never acknowledged)`,
    );
    const given = [...recorder.writes.values()].filter((w) => !w.acknowledgedAt && w.phase !== 'overload' && w.kind !== 'token-plain');
    check(
      'a client retrying with its key for 60 s gets every write acknowledged',
      given.length === 0,
      `${given.length} writes given up (last status: ${summarizeStatuses(given)}; begun in: ${[...new Set(given.map((w) => w.phase))].join(', ') || '-'})`,
    );
    const hooks = await verifyWebhooks({ recorder, receiver, waitMs: ci ? 30_000 : 60_000 });
    if (hooks.accepted) {
      check(
        'async invocations: every webhook arrives, with its own outcome',
        hooks.missing.length === 0 && hooks.wrongBody === 0,
        `${hooks.delivered} of ${hooks.accepted} delivered, ${hooks.rawDeliveries} deliveries (${hooks.redelivered} ids redelivered), ${hooks.wrongBody} with a wrong body${
          hooks.wrongBodies.length ? ` ${JSON.stringify(hooks.wrongBodies)}` : ''
        }; ${hooks.failedRuns.length} runs failed under the faults and delivered their own failure${
          hooks.failedRuns.length ? ` ${JSON.stringify(hooks.failedRuns.slice(0, 5))}` : ''
        }`,
      );
      check(
        'retries with an idempotency key never run an invocation twice (one webhook-id per key)',
        hooks.duplicateInvocations === 0,
        `${hooks.duplicateInvocations} extra webhook-ids`,
      );
    }
    const faultAttempts = recorder.attempts.filter((a) => !['overload', 'capacity'].includes(a.phase));
    const creates = latencyFigures(
      recorder.attempts.filter((a) => a.kind === 'token' || a.kind === 'token-plain'),
      CREATE_LIMIT_MS,
    );
    const reacts = latencyFigures(
      recorder.attempts.filter((a) => a.kind === 'react'),
      REACT_LIMIT_MS,
    );
    check(
      'no request past its deadline',
      creates.over + reacts.over === 0,
      `${creates.over} creates over ${CREATE_LIMIT_MS / 1000} s, ${reacts.over} reacts over ${REACT_LIMIT_MS / 1000} s; slowest ${Math.round(Math.max(creates.max, reacts.max))} ms`,
    );
    const refused = faultAttempts.filter((a) => a.status >= 400 && a.status < 500 && a.status !== 409 && a.status !== 429);
    check('no request refused with a 4xx during the faults', refused.length === 0, `${refused.length} (${summarizeStatuses(refused)})`);

    report.summary = {
      requests: recorder.attempts.length,
      faults_injected: report.scenarios.reduce((n, s) => n + s.faults, 0),
      writes: recorder.writes.size,
      acknowledged: tokens.acknowledged + hooks.accepted,
      lost: tokens.lost.length + hooks.missing.length,
      wrong_data: tokens.wrongData.length + hooks.wrongBody,
      duplicates: tokens.duplicates + hooks.duplicateInvocations,
      max_latency_ms: Math.round(Math.max(creates.max, reacts.max)),
      over_deadline: creates.over + reacts.over,
    };
    report.tokens = { ...tokens, lost: tokens.lost.slice(0, 20), wrongData: tokens.wrongData.slice(0, 20), duplicatedKeys: tokens.duplicatedKeys.slice(0, 20) };
    report.webhooks = { ...hooks, missing: hooks.missing.slice(0, 20) };
    report.lost_reply_rounds = ctx.lostReplyRounds;
    // every request, one JSON line each, to find out what happened when an assertion fails
    fs.writeFileSync(path.join(ROOT, 'tmp', 'faults', 'attempts.ndjson'), recorder.attempts.map((a) => JSON.stringify(a)).join('\n') + '\n');
    await client.close();
  } finally {
    await sys.close();
    await receiver.close();
  }
  const only = opts.only?.split(',').map((s) => s.trim().toLowerCase());
  const wantNoisy = opts.noisy || (!ci && !opts['no-noisy'] && (!only || only.some((o) => 'noisy neighbour'.includes(o))));
  if (wantNoisy) {
    const t = Date.now();
    const noisy = runNoisyNeighbour({ windowSeconds: Number(opts['noisy-seconds']) || undefined, log });
    for (const a of noisyNeighbourAssertions(noisy)) check(a.name, a.ok, a.figure);
    report.noisy_neighbour = { seconds: Math.round((Date.now() - t) / 1000), results: noisy.report?.results ?? null };
  }
  report.seconds = Math.round((Date.now() - started) / 1000);
  const file = writeReport({ dir: path.join(ROOT, 'tmp', 'faults'), report });
  printReport(report, file);
  const failed = assertions.filter((a) => !a.ok);
  log(`${assertions.length - failed.length} of ${assertions.length} assertions passed in ${report.seconds} s`);
  process.exit(failed.length ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`[faults] failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
