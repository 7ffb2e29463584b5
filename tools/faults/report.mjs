// The suite's output: a table per scenario, the headline figures, every assertion with its figure, and the same as
// JSON under tmp/faults/ (latest.json and a timestamped copy).
import fs from 'node:fs';
import path from 'node:path';

function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells) => cells.map((v, i) => String(v ?? '').padEnd(widths[i])).join('  ');
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c])))].join('\n');
}

export function writeReport({ dir, report }) {
  fs.mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(report, null, 2);
  const stamp = new Date(report.started_at).toISOString().replace(/[:.]/g, '-');
  fs.writeFileSync(path.join(dir, `faults-${stamp}.json`), json);
  fs.writeFileSync(path.join(dir, 'latest.json'), json);
  return path.join(dir, 'latest.json');
}

export function printReport(report, file) {
  const out = [];
  out.push('', '== fault scenarios ==');
  out.push(table(report.scenarios, ['scenario', 'faults', 'requests', 'ok', 'failed', 'statuses', 'max_ms', 'over_deadline', 'seconds']));
  const s = report.summary;
  out.push('', '== summary ==');
  out.push(
    table(
      [
        {
          requests: s.requests,
          faults_injected: s.faults_injected,
          writes: s.writes,
          acknowledged: s.acknowledged,
          lost: s.lost,
          wrong_data: s.wrong_data,
          duplicates: s.duplicates,
          max_latency_ms: s.max_latency_ms,
          over_deadline: s.over_deadline,
        },
      ],
      ['requests', 'faults_injected', 'writes', 'acknowledged', 'lost', 'wrong_data', 'duplicates', 'max_latency_ms', 'over_deadline'],
    ),
  );
  if (report.overload) {
    const o = report.overload;
    out.push('', '== overload ==');
    out.push(
      `offered ${o.offered_per_s}/s for ${o.seconds} s (capacity ${report.capacity_per_s}/s): ${o.requests} requests, ${o.acknowledged_per_s}/s acknowledged, ` +
        `503 ${o.unavailable_503} (${o.unavailable_with_retry_after_and_problem} with Retry-After + problem+json, p50 ${o.p50_503_ms} ms), ` +
        `p50 ${o.p50_ms} ms, p99 ${o.p99_ms} ms, max ${o.max_ms} ms, ${o.over_deadline} over the deadline, statuses ${JSON.stringify(o.statuses)}`,
    );
    out.push(
      table(
        Object.keys(o.rss_mb_peak).map((n) => ({ service: n, rss_mb_before: o.rss_mb_before[n], rss_mb_peak: o.rss_mb_peak[n] })),
        ['service', 'rss_mb_before', 'rss_mb_peak'],
      ),
    );
    out.push(
      `health probes: ${o.health_probes} sent, ${o.health_probes_failed} failed ${o.health_probe_failures.join(', ')}, slowest ${o.health_probe_max_ms} ms`,
    );
  }
  out.push('', '== assertions ==');
  for (const a of report.assertions) out.push(`${a.ok ? 'PASS' : 'FAIL'}  ${a.name}: ${a.figure}`);
  out.push('', `report: ${file}`);
  process.stdout.write(`${out.join('\n')}\n`);
}
