// The alert rules and dashboards of deploy/monitoring stay true: promtool accepts the rules and their unit tests pass,
// every alert has a runbook in docs/operations.md, the PrometheusRule is made from the rules file, and the rules and
// dashboards read only metrics that Coffer exports. promtool comes from Debian's `prometheus` package (installed when
// missing, as root). Run: node --test 'tools/monitoring/*.test.mjs'  (or: npx nx test monitoring)
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { promtool } from './promtool.mjs';
import { PROMETHEUS_RULE_FILE, ROOT, RULES_FILE, renderPrometheusRule } from './render.mjs';
import { cofferMetrics, metricNamesIn, seriesNames, withoutGrafanaVariables } from './metric-names.mjs';

const MONITORING = path.join(ROOT, 'deploy/monitoring');
const TESTS_FILE = path.join(MONITORING, 'coffer-alerts.test.yml');
const DASHBOARDS = path.join(MONITORING, 'dashboards');
const OPERATIONS = path.join(ROOT, 'docs/operations.md');

const rulesText = fs.readFileSync(RULES_FILE, 'utf8');
const alertRules = YAML.parse(rulesText).groups.flatMap((g) => g.rules.filter((r) => r.alert));
const alertNames = [...new Set(alertRules.map((r) => r.alert))];
const dashboards = fs
  .readdirSync(DASHBOARDS)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, json: JSON.parse(fs.readFileSync(path.join(DASHBOARDS, f), 'utf8')) }));

/** The markdown section under `## heading`, up to the next `## `. */
function section(text, heading) {
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `docs/operations.md has no "## ${heading}" section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

test('promtool check rules accepts the rules file', () => {
  promtool(['check', 'rules', RULES_FILE]);
});

test('promtool test rules: each alert fires when it should, with its labels and annotations', () => {
  promtool(['test', 'rules', path.basename(TESTS_FILE)], { cwd: MONITORING });
});

test('every alert has a case that fires it and one that must not', () => {
  const cases = YAML.parse(fs.readFileSync(TESTS_FILE, 'utf8')).tests.flatMap((t) => t.alert_rule_test ?? []);
  for (const name of alertNames) {
    const mine = cases.filter((c) => c.alertname === name);
    assert.ok(
      mine.some((c) => (c.exp_alerts ?? []).length > 0),
      `${name}: no case in coffer-alerts.test.yml where it fires`,
    );
    assert.ok(
      mine.some((c) => (c.exp_alerts ?? []).length === 0),
      `${name}: no case in coffer-alerts.test.yml where it stays quiet`,
    );
  }
});

test('every alert has a severity, a summary, a description and its runbook in docs/operations.md', () => {
  const runbooks = section(fs.readFileSync(OPERATIONS, 'utf8'), 'Alerts and runbooks');
  const headings = [...runbooks.matchAll(/^### (\S+)\s*$/gm)].map((m) => m[1]);
  for (const rule of alertRules) {
    assert.ok(['warning', 'critical'].includes(rule.labels?.severity), `${rule.alert}: severity must be warning or critical`);
    for (const key of ['summary', 'description', 'runbook_url']) assert.ok(rule.annotations?.[key], `${rule.alert}: no ${key} annotation`);
    // the docs' link check knows markdown headings only: `### CofferX` is the anchor #cofferx
    assert.equal(rule.annotations.runbook_url, `docs/operations.md#${rule.alert.toLowerCase()}`, `${rule.alert}: runbook_url`);
    assert.ok(headings.includes(rule.alert), `${rule.alert}: no "### ${rule.alert}" in docs/operations.md, "Alerts and runbooks"`);
  }
  assert.deepEqual(
    headings.filter((h) => !alertNames.includes(h)),
    [],
    'runbooks for alerts that no longer exist',
  );
});

test('the availability rules cover every service npm start and the manifests run (tools/dev/system.mjs APPS)', async () => {
  const { APPS } = await import(pathToFileURL(path.join(ROOT, 'tools/dev/system.mjs')).href);
  for (const app of APPS) assert.ok(rulesText.includes(`absent(up{job="${app}"})`), `CofferServiceDown: no absent(up{job="${app}"})`);
  const lists = [...rulesText.matchAll(/job=~"([^"]+)"/g)].map((m) => m[1].split('|').sort());
  assert.ok(lists.length > 0);
  for (const list of lists) assert.deepEqual(list, [...APPS].sort());
});

test('deploy/monitoring/prometheus-rule.yaml is made from the rules file (node tools/monitoring/render.mjs)', () => {
  assert.equal(fs.readFileSync(PROMETHEUS_RULE_FILE, 'utf8'), renderPrometheusRule(rulesText), 'run `node tools/monitoring/render.mjs`');
  const rendered = YAML.parse(fs.readFileSync(PROMETHEUS_RULE_FILE, 'utf8'));
  assert.equal(rendered.apiVersion, 'monitoring.coreos.com/v1');
  assert.equal(rendered.kind, 'PrometheusRule');
  assert.deepEqual(rendered.spec.groups, YAML.parse(rulesText).groups);
});

test('the rules and the dashboards read only metrics Coffer exports', async () => {
  const known = seriesNames(await cofferMetrics());
  const unknown = [];
  const check = (where, expr) => {
    for (const name of metricNamesIn(expr)) if (!known.has(name)) unknown.push(`${where}: ${name}`);
  };
  for (const rule of alertRules) check(rule.alert, rule.expr);
  for (const { file, json } of dashboards) {
    for (const { title, expr } of dashboardQueries(json)) check(`${file} "${title}"`, expr);
  }
  assert.deepEqual(unknown, []);
});

test('the metric names are found in an expression, functions and keywords aside', () => {
  assert.deepEqual(
    [...metricNamesIn('histogram_quantile(0.99, sum by (le, route) (rate(a_bucket{route!~"/x|y"}[$__rate_interval]))) > 1 and on (route) b_total offset 5m')],
    ['a_bucket', 'b_total'],
  );
  assert.deepEqual([...metricNamesIn('min by (job) (c) - time() < 21 * 86400')], ['c']);
});

test('deploy/monitoring/kustomization.yaml applies the PrometheusRule, the PodMonitor and every dashboard', () => {
  const kustomization = YAML.parse(fs.readFileSync(path.join(MONITORING, 'kustomization.yaml'), 'utf8'));
  assert.deepEqual(kustomization.resources, ['prometheus-rule.yaml', 'podmonitor.yaml']);
  const files = kustomization.configMapGenerator.flatMap((g) => g.files);
  assert.deepEqual([...files].sort(), dashboards.map((d) => `dashboards/${d.file}`).sort());
  const podMonitor = YAML.parse(fs.readFileSync(path.join(MONITORING, 'podmonitor.yaml'), 'utf8'));
  // the rules select services by job: the PodMonitor names each target's job after its pod's app.kubernetes.io/name
  assert.equal(podMonitor.spec.jobLabel, 'app.kubernetes.io/name');
  assert.deepEqual(
    podMonitor.spec.podMetricsEndpoints.map((e) => e.port),
    ['health'],
  );
});

test('every dashboard has the ${datasource} variable, its panels use it, and promtool parses every query', () => {
  const records = [];
  const uids = new Set();
  for (const { file, json } of dashboards) {
    assert.ok(json.title.startsWith('Coffer / '), `${file}: title`);
    assert.ok(!uids.has(json.uid), `${file}: uid ${json.uid} used twice`);
    uids.add(json.uid);
    const datasource = json.templating.list.find((v) => v.name === 'datasource');
    assert.deepEqual({ type: datasource?.type, query: datasource?.query }, { type: 'datasource', query: 'prometheus' }, `${file}: the datasource variable`);
    for (const panel of json.panels.filter((p) => p.type !== 'row')) {
      assert.equal(panel.datasource?.uid, '${datasource}', `${file} "${panel.title}": datasource`);
      assert.ok(panel.targets?.length, `${file} "${panel.title}": no query`);
      for (const target of panel.targets) assert.equal(target.datasource?.uid, '${datasource}', `${file} "${panel.title}": target datasource`);
    }
    for (const { title, expr } of dashboardQueries(json))
      records.push({ record: `dashboard:query_${records.length}`, expr: withoutGrafanaVariables(expr), labels: { title } });
  }
  assert.ok(records.length > 0);
  // promtool parses queries only as rules: each query becomes a recording rule of a throwaway file
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-dashboards-'));
  try {
    const file = path.join(dir, 'dashboards.rules.yml');
    fs.writeFileSync(file, YAML.stringify({ groups: [{ name: 'dashboards', rules: records }] }));
    promtool(['check', 'rules', file]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("docs/operations.md's metrics table lists every metric Coffer defines", async () => {
  const table = section(fs.readFileSync(OPERATIONS, 'utf8'), 'Health, metrics and logs');
  const missing = [...(await cofferMetrics()).keys()].filter((name) => name.startsWith('coffer_') && !table.includes(`\`${name}\``));
  assert.deepEqual(missing, []);
});

/** Every PromQL query of a dashboard: its panels' targets and its variables' label_values(…) selectors. */
function dashboardQueries(json) {
  const out = [];
  for (const panel of json.panels ?? []) for (const target of panel.targets ?? []) out.push({ title: panel.title, expr: target.expr });
  for (const v of json.templating?.list ?? []) {
    if (v.type !== 'query') continue;
    const query = typeof v.query === 'string' ? v.query : v.query?.query;
    const selector = /^label_values\((.+),\s*\w+\)$/.exec(query ?? '')?.[1];
    assert.ok(selector, `variable ${v.name}: only label_values(<selector>, <label>) queries are checked`);
    out.push({ title: `variable ${v.name}`, expr: selector });
  }
  return out;
}
