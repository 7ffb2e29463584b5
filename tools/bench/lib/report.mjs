// The outputs of a run: the terminal table, bench/results/<date>.json, an SVG chart (hand-written, no dependency)
// and the Markdown table the README's Performance section shows.

/** Short column names for the processes whose CPU is reported per request. */
export const CPU_COLUMNS = [
  ['gateway', 'gw'],
  ['token-service', 'tok'],
  ['session-service', 'ses'],
  ['reactor-service', 'rea'],
  ['webhook-dispatcher', 'whk'],
  ['service-host', 'host'],
  ['nats-server', 'nats'],
  ['postgres', 'pg'],
  ['fastify-floor', 'flr'],
  ['skeleton-edge', 'sedg'],
  ['skeleton-store', 'ssto'],
  ['skeleton-nats', 'snat'],
  ['bench', 'load'],
];

const fmt = (x, digits = 2) => (x === undefined || x === null || Number.isNaN(x) ? '–' : x.toFixed(digits));
const num = (x) => (x === undefined || x === null || Number.isNaN(x) ? '–' : Math.round(x).toLocaleString('en-US'));

/** One table row from a measurement: throughput, latency, errors, ratio to its baseline, CPU ms per request. */
export function toRow({ group, scenario, clients, r, cpu, baseline, baselineOps, extra }) {
  const row = {
    group,
    scenario,
    clients,
    ops_per_s: Math.round(r.ops),
    mean_ms: +fmt(r.mean, 3),
    p50_ms: +fmt(r.p50, 3),
    p99_ms: +fmt(r.p99, 3),
    max_ms: +fmt(r.max, 1),
    requests: r.count,
    errors: r.errors,
    ...(r.firstError ? { first_error: r.firstError } : {}),
    ...(baseline && baselineOps ? { baseline, ratio: +(r.ops / baselineOps).toFixed(3) } : {}),
    cpu_s: cpu,
    cpu_ms_per_op: Object.fromEntries(Object.entries(cpu ?? {}).map(([k, s]) => [k, r.count ? +((s * 1000) / r.count).toFixed(3) : null])),
    ...extra,
  };
  return row;
}

/**
 * Context switches per request by process group (lib/cpu.mjs CpuSampler.switches): `woken`, the times a process waited
 * (a socket, a timer) and was woken again, and `preempted`. Groups with neither left out.
 */
export function switchesPerOp(switches, count) {
  if (!count || !switches) return undefined;
  const out = {};
  for (const [name, s] of Object.entries(switches)) {
    const woken = +(s.voluntary / count).toFixed(2);
    const preempted = +(s.involuntary / count).toFixed(2);
    if (woken || preempted) out[name] = { woken, preempted };
  }
  return Object.keys(out).length ? out : undefined;
}

/** `   context switches/req (woken+preempted): gw 0.20+0.47, …, all 4.31` in the table's column order, or null. */
export function switchesLine(row) {
  const per = row.switches_per_op;
  if (!per) return null;
  const parts = CPU_COLUMNS.filter(([name]) => per[name]).map(([name, short]) => `${short} ${fmt(per[name].woken)}+${fmt(per[name].preempted)}`);
  if (!parts.length) return null;
  return `   context switches/req (woken+preempted): ${parts.join(', ')}; all ${fmt(totalSwitches(per))}`;
}

/** Every context switch per request of a row, the load's own included. */
export function totalSwitches(per) {
  return Object.values(per ?? {}).reduce((sum, s) => sum + s.woken + s.preempted, 0);
}

export function tableHeader() {
  const cpu = CPU_COLUMNS.map(([, short]) => short.padStart(5)).join(' ');
  return `${'scenario'.padEnd(44)} ${'c'.padStart(2)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'err'.padStart(4)} ${'ratio'.padStart(12)} | CPU ms/req ${cpu}`;
}

export function tableLine(row) {
  const ratio = row.ratio !== undefined ? `${row.ratio.toFixed(2)}×${row.baseline}` : '';
  const cpu = CPU_COLUMNS.map(([name]) => {
    const v = row.cpu_ms_per_op?.[name];
    return (v === undefined || v === null ? '' : v.toFixed(2)).padStart(5);
  }).join(' ');
  return `${row.scenario.slice(0, 44).padEnd(44)} ${String(row.clients).padStart(2)} ${num(row.ops_per_s).padStart(7)} ${fmt(row.p50_ms).padStart(7)} ${fmt(row.p99_ms).padStart(7)} ${String(row.errors).padStart(4)} ${ratio.padStart(12)} |            ${cpu}`;
}

/** The machine's CPU time while the run lasted (run.mjs cpu_time_during_run), when it was read. */
export function duringRun(t) {
  return t ? `; the machine's CPU time during the run: ${t.busy_pct} % busy, ${t.iowait_pct} % waiting on the disk, ${t.steal_pct} % stolen` : '';
}

/** The README's table: the rows at the highest client count plus the single-client read, with the machine. */
export function markdown(result) {
  const m = result.machine;
  const lines = [
    `Measured ${result.started_at.slice(0, 16).replace('T', ' ')} UTC on ${m.cpus} × ${m.cpu_model}, ${m.memory_gb} GB, ${m.os}, Node ${m.node}` +
      ` — everything co-located (${result.target}), ${result.config.seconds} s per scenario after ${result.config.warmup} s of warm-up` +
      `${result.config.quick ? ' (quick mode)' : ''}, load average at start ${m.load_average_at_start?.[0] ?? '?'}${duringRun(m.cpu_time_during_run)}. Ratios divide by the in-run baseline named after ×.`,
    '',
    '| scenario | clients | req/s | p50 ms | p99 ms | ratio | CPU ms/req (gateway / services / nats / pg) |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of result.rows) {
    const c = row.cpu_ms_per_op ?? {};
    const services = ['token-service', 'session-service', 'reactor-service'].map((k) => c[k] ?? 0).reduce((a, b) => a + b, 0);
    const cpu = row.scenario.startsWith('skeleton ')
      ? `${fmt(c['skeleton-edge'])} / ${fmt(c['skeleton-store'])} / ${fmt(c['skeleton-nats'])} / ${fmt(c.postgres)}`
      : c.gateway !== undefined
        ? `${fmt(c.gateway)} / ${fmt(services)} / ${fmt(c['nats-server'])} / ${fmt(c.postgres)}`
        : c.postgres !== undefined
          ? `pg ${fmt(c.postgres)}`
          : '';
    const ratio = row.ratio !== undefined ? `${row.ratio.toFixed(2)} × ${row.baseline}` : '';
    lines.push(`| ${row.scenario} | ${row.clients} | ${num(row.ops_per_s)} | ${fmt(row.p50_ms)} | ${fmt(row.p99_ms)} | ${ratio} | ${cpu} |`);
  }
  return lines.join('\n');
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const CLIENT_COLOURS = { 1: '#9ecae1', 4: '#6baed6', 8: '#3182bd', 16: '#08519c', 32: '#08306b' };

/**
 * Two panels per row: throughput (linear, bar) and latency (log scale, p50 bar with the p99 as a tick and label).
 * One row per scenario and client count, grouped as in the table.
 */
export function svg(result) {
  const rows = result.rows;
  const rowH = 16;
  const label = 300;
  const panel = 330;
  const top = 56;
  const width = label + panel * 2 + 60;
  const height = top + rows.length * rowH + 30;
  const maxOps = Math.max(1, ...rows.map((r) => r.ops_per_s));
  const maxLat = Math.max(1, ...rows.map((r) => r.p99_ms || 0));
  const minLat = 0.1;
  const logX = (ms) => (Math.log10(Math.max(ms, minLat) / minLat) / Math.log10(maxLat / minLat)) * (panel - 20);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">Coffer benchmark ${esc(result.started_at.slice(0, 16))} UTC — ${esc(result.machine.cpus)} × ${esc(result.machine.cpu_model)}</text>`,
    `<text x="${label}" y="44" font-weight="bold">throughput (req/s, max ${Math.round(maxOps).toLocaleString('en-US')})</text>`,
    `<text x="${label + panel + 20}" y="44" font-weight="bold">latency ms, log scale (bar p50, tick p99)</text>`,
  ];
  const present = Object.entries(CLIENT_COLOURS).filter(([c]) => rows.some((r) => String(r.clients) === c));
  for (const [i, [c, colour]] of present.entries()) {
    out.push(`<rect x="${width - 260 + i * 50}" y="8" width="10" height="10" fill="${colour}"/><text x="${width - 246 + i * 50}" y="17">c=${c}</text>`);
  }
  // latency grid: decades
  for (let ms = minLat; ms <= maxLat * 1.0001; ms *= 10) {
    const x = label + panel + 20 + logX(ms);
    out.push(
      `<line x1="${x}" y1="${top - 6}" x2="${x}" y2="${height - 24}" stroke="#ddd"/><text x="${x}" y="${height - 10}" text-anchor="middle" fill="#666">${ms >= 1 ? ms : ms.toFixed(1)}</text>`,
    );
  }
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    const colour = CLIENT_COLOURS[r.clients] ?? '#555';
    const name = `${r.group === 'request' ? '' : `[${r.group}] `}${r.scenario} c=${r.clients}`;
    out.push(`<text x="${label - 6}" y="${y + 11}" text-anchor="end">${esc(name.slice(0, 52))}</text>`);
    const w = (r.ops_per_s / maxOps) * (panel - 70);
    out.push(`<rect x="${label}" y="${y + 2}" width="${w.toFixed(1)}" height="${rowH - 4}" fill="${colour}"/>`);
    out.push(`<text x="${label + w + 4}" y="${y + 11}" fill="#333">${r.ops_per_s.toLocaleString('en-US')}${r.errors ? ` (${r.errors} err)` : ''}</text>`);
    const x0 = label + panel + 20;
    const p50 = logX(r.p50_ms || minLat);
    const p99 = logX(r.p99_ms || minLat);
    out.push(`<rect x="${x0}" y="${y + 3}" width="${p50.toFixed(1)}" height="${rowH - 6}" fill="${colour}"/>`);
    out.push(`<line x1="${(x0 + p99).toFixed(1)}" y1="${y + 1}" x2="${(x0 + p99).toFixed(1)}" y2="${y + rowH - 1}" stroke="#c00" stroke-width="2"/>`);
    out.push(`<text x="${(x0 + p99 + 4).toFixed(1)}" y="${y + 11}" fill="#333">${fmt(r.p50_ms)} / ${fmt(r.p99_ms)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
