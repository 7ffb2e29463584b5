/**
 * Benchmark of @coffer/expression mask evaluation.
 *
 *   npx ts-node --transpile-only -O '{"module":"commonjs"}' tools/bench/expression.bench.ts
 *
 * (a) evaluateMask with the default card mask over a card,
 * (b) plain liquidjs: the same three templates parsed once, renderSync each (strings only, no typing),
 * (c) a hand-written JS function doing the same masking (the ceiling).
 * Each runs for BENCH_MS (default 2000) ms after a short warm-up.
 */
import { Liquid } from 'liquidjs';
import { evaluateMask } from '../../libs/expression/src';

const BENCH_MS = Number(process.env['BENCH_MS'] ?? 2000);

const CARD_MASK = {
  number: '{{ data.number | reveal_last: 4 }}',
  expiration_month: '{{ data.expiration_month }}',
  expiration_year: '{{ data.expiration_year }}',
};
const CARD = { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 };
const EXPECTED = JSON.stringify({ number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 });

// (b) plain liquidjs, with a minimal reveal_last so the templates parse
const liquid = new Liquid();
liquid.registerFilter('reveal_last', (v: unknown, n: number) => {
  const s = String(v);
  return s.length <= n ? 'X'.repeat(s.length) : 'X'.repeat(s.length - n) + s.slice(s.length - n);
});
const parsed = Object.entries(CARD_MASK).map(([k, t]) => [k, liquid.parse(t)] as const);
function plainLiquid(data: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, tpl] of parsed) out[k] = liquid.renderSync(tpl, { data });
  return out;
}

// (c) the ceiling
function handWritten(data: { number?: string; expiration_month?: number; expiration_year?: number }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = data.number;
  if (n != null) out['number'] = n.length <= 4 ? 'X'.repeat(n.length) : 'X'.repeat(n.length - 4) + n.slice(n.length - 4);
  if (data.expiration_month != null) out['expiration_month'] = data.expiration_month;
  if (data.expiration_year != null) out['expiration_year'] = data.expiration_year;
  return out;
}

let sink: unknown;
function measure(name: string, fn: () => unknown): number {
  const warmEnd = Date.now() + Math.min(300, BENCH_MS / 4);
  while (Date.now() < warmEnd) for (let i = 0; i < 100; i++) sink = fn();
  let ops = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(BENCH_MS) * 1_000_000n;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 200; i++) sink = fn();
    ops += 200;
    now = process.hrtime.bigint();
  }
  const opsPerSec = ops / (Number(now - start) / 1e9);
  process.stdout.write(`  ${name.padEnd(28)} ${Math.round(opsPerSec).toLocaleString('en-US').padStart(12)} ops/s\n`);
  return opsPerSec;
}

function main(): void {
  const ours = JSON.stringify(evaluateMask(CARD_MASK, CARD));
  if (ours !== EXPECTED) throw new Error(`unexpected mask result ${ours}`);
  if (JSON.stringify(handWritten(CARD)) !== EXPECTED) throw new Error('hand-written mask is wrong');

  process.stdout.write(`expression benchmark (${BENCH_MS} ms each, node ${process.version})\n`);
  const a = measure('(a) @coffer/expression', () => evaluateMask(CARD_MASK, CARD));
  const b = measure('(b) plain liquidjs', () => plainLiquid(CARD));
  const c = measure('(c) hand-written JS', () => handWritten(CARD));
  const rows: [string, string][] = [
    ['ours / plain liquidjs', (a / b).toFixed(2)],
    ['ours / hand-written', (a / c).toFixed(3)],
  ];
  for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(28)} ${v.padStart(12)}\n`);
  process.stdout.write(
    `BENCH_JSON ${JSON.stringify({
      bench: 'expression.mask.card',
      ms: BENCH_MS,
      ours_ops_per_sec: Math.round(a),
      plain_liquidjs_ops_per_sec: Math.round(b),
      hand_written_ops_per_sec: Math.round(c),
      ours_over_plain_liquidjs: Number((a / b).toFixed(3)),
      ours_over_hand_written: Number((a / c).toFixed(4)),
    })}\n`,
  );
  if (sink === undefined) process.stdout.write('');
}

main();
