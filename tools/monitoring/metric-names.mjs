// The metric names Coffer exports, read from the code (every `new Counter|Gauge|Histogram({ name: '…' })` in apps/ and
// libs/, and prom-client's default metrics), and the metric names a PromQL expression reads: what keeps the alert
// rules and dashboards from drifting away from the metrics.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './render.mjs';

const require = createRequire(import.meta.url);

/** Prometheus's own series for every target. */
const SCRAPE_SERIES = ['up'];

function sources(dir) {
  const out = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'generated') continue;
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** name → type ('counter', 'gauge', 'histogram', 'summary') of every metric the code defines. */
export async function cofferMetrics() {
  const metrics = new Map();
  for (const dir of ['apps', 'libs']) {
    for (const file of sources(path.join(ROOT, dir))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new (Counter|Gauge|Histogram|Summary)\(\{\s*name:\s*'([a-zA-Z_:][a-zA-Z0-9_:]*)'/g)) metrics.set(m[2], m[1].toLowerCase());
    }
  }
  const { Registry, collectDefaultMetrics } = require('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const m of await registry.getMetricsAsJSON()) metrics.set(m.name, m.type);
  for (const name of SCRAPE_SERIES) metrics.set(name, 'gauge');
  return metrics;
}

/** Every series name the metrics export: histograms as their _bucket, _sum and _count. */
export function seriesNames(metrics) {
  const names = new Set();
  for (const [name, type] of metrics) {
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(name + suffix);
    else names.add(name);
  }
  return names;
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/** The metric names a PromQL expression selects (Grafana's $variables allowed). */
export function metricNamesIn(expr) {
  const bare = withoutGrafanaVariables(expr)
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\boffset\s+-?[0-9a-z]+/gi, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = new Set();
  for (const m of bare.matchAll(/(\d+(?:\.\d+)?(?:e[+-]?\d+)?)|([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/gi)) {
    if (m[1] !== undefined || m[3] !== undefined) continue; // a number, or a function call
    if (!KEYWORDS.has(m[2].toLowerCase())) names.add(m[2]);
  }
  return names;
}

/** Grafana's variables replaced by what Prometheus accepts in their place, so that promtool can parse the query. */
export function withoutGrafanaVariables(expr) {
  return expr
    .replace(/\$__rate_interval|\$\{__rate_interval\}|\$__interval|\$\{__interval\}|\$__range|\$\{__range\}/g, '5m')
    .replace(/\$\{?[a-zA-Z_]\w*\}?/g, '.*');
}
