import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duringRun, markdown, svg, switchesLine, switchesPerOp, tableHeader, tableLine, toRow, totalSwitches } from './report.mjs';

const r = { ops: 1234.4, count: 6172, mean: 6.1, p50: 5.5, p99: 20.25, max: 40, errors: 0 };
const result = {
  started_at: '2026-11-24T04:00:00.000Z',
  target: 'throwaway system',
  config: { seconds: 5, warmup: 1, quick: false },
  machine: { cpus: 2, cpu_model: 'AMD EPYC', memory_gb: 8, os: 'linux', node: 'v22' },
  rows: [
    toRow({ group: 'baseline', scenario: 'pg INSERT', clients: 32, r: { ...r, ops: 6000 }, cpu: { postgres: 3 } }),
    toRow({
      group: 'request',
      scenario: 'POST /tokens (card) <x>',
      clients: 32,
      r,
      cpu: { gateway: 3.0862, postgres: 1 },
      baseline: 'insert',
      baselineOps: 6000,
    }),
  ],
};

test('a row carries the ratio to its baseline and CPU ms per request', () => {
  const row = result.rows[1];
  assert.equal(row.ops_per_s, 1234);
  assert.equal(row.ratio, 0.206);
  assert.equal(row.cpu_ms_per_op.gateway, 0.5);
  assert.equal(result.rows[0].ratio, undefined);
});

test('the terminal table lines up with its header', () => {
  assert.ok(tableLine(result.rows[1]).includes('0.21×insert'));
  assert.equal(tableLine(result.rows[1]).indexOf('|'), tableHeader().indexOf('|'));
});

test('the Markdown table names the machine and has one line per row', () => {
  const md = markdown(result);
  assert.match(md, /2 × AMD EPYC/);
  assert.equal(md.split('\n').filter((l) => l.startsWith('| POST')).length, 1);
});

test('the SVG is well-formed enough: one bar per row, labels escaped', () => {
  const s = svg(result);
  assert.match(s, /^<svg [^>]*>/);
  assert.ok(s.trim().endsWith('</svg>'));
  assert.ok(s.includes('&lt;x&gt;'));
  assert.ok(!s.includes('<x>'));
});

test("the report's first line says what the run shared the machine with, when it was read", () => {
  assert.equal(duringRun(undefined), '');
  const line = markdown({ ...result, machine: { ...result.machine, cpu_time_during_run: { busy_pct: 48.2, iowait_pct: 41.5, steal_pct: 0 } } }).split('\n')[0];
  assert.match(line, /; the machine's CPU time during the run: 48.2 % busy, 41.5 % waiting on the disk, 0 % stolen\. Ratios divide/);
  assert.doesNotMatch(markdown(result).split('\n')[0], /during the run/);
});

test("context switches per request: woken and preempted by group, in the table's column order, idle groups left out", () => {
  const per = switchesPerOp(
    {
      postgres: { voluntary: 800, involuntary: 200 },
      gateway: { voluntary: 200, involuntary: 470 },
      'session-service': { voluntary: 0, involuntary: 0 },
    },
    1000,
  );
  assert.deepEqual(per, { postgres: { woken: 0.8, preempted: 0.2 }, gateway: { woken: 0.2, preempted: 0.47 } });
  assert.equal(switchesLine({ switches_per_op: per }), '   context switches/req (woken+preempted): gw 0.20+0.47, pg 0.80+0.20; all 1.67');
  assert.ok(Math.abs(totalSwitches(per) - 1.67) < 1e-9);
  assert.equal(switchesPerOp({ gateway: { voluntary: 0, involuntary: 0 } }, 10), undefined);
  assert.equal(switchesPerOp({ gateway: { voluntary: 5, involuntary: 0 } }, 0), undefined);
  assert.equal(switchesLine({}), null);
});
