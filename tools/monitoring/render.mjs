#!/usr/bin/env node
// Makes deploy/monitoring/prometheus-rule.yaml (the Prometheus Operator's PrometheusRule) from the plain rules file,
// deploy/monitoring/coffer-alerts.rules.yml, the one source: edit that, then run `node tools/monitoring/render.mjs`.
// `npx nx test monitoring` fails while the two differ.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RULES_FILE = path.join(ROOT, 'deploy/monitoring/coffer-alerts.rules.yml');
export const PROMETHEUS_RULE_FILE = path.join(ROOT, 'deploy/monitoring/prometheus-rule.yaml');

const HEADER = `# Generated from coffer-alerts.rules.yml by \`node tools/monitoring/render.mjs\`: edit that file, not this one.
# The Prometheus Operator loads it when its Prometheus's ruleSelector matches these labels (kube-prometheus-stack
# selects \`release: <its release name>\` by default: add that label in your overlay). docs/operations.md, "Monitoring".
`;

/** The PrometheusRule text for the plain rules file's text. */
export function renderPrometheusRule(rulesText) {
  const { groups } = YAML.parse(rulesText);
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'coffer-alerts',
      labels: { 'app.kubernetes.io/name': 'coffer-alerts', 'app.kubernetes.io/part-of': 'coffer' },
    },
    spec: { groups },
  };
  return HEADER + YAML.stringify(rule, { lineWidth: 0 });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(PROMETHEUS_RULE_FILE, renderPrometheusRule(fs.readFileSync(RULES_FILE, 'utf8')));
  process.stdout.write(`${path.relative(ROOT, PROMETHEUS_RULE_FILE)} written\n`);
}
