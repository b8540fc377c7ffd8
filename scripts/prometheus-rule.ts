/**
 * Writes deploy/k8s/overlays/prod/prometheus-rule.yaml, the Prometheus operator's PrometheusRule holding the
 * alerting rules of deploy/monitoring/alerts.yml (the one place they are written). `tsx scripts/prometheus-rule.ts`;
 * tests/deploy/k8s-manifests.test.ts fails when the file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';

const root = path.join(__dirname, '..');
export const PROMETHEUS_RULE_FILE = path.join(root, 'deploy/k8s/overlays/prod/prometheus-rule.yaml');

export function prometheusRuleYaml(): string {
  const alerts = parse(readFileSync(path.join(root, 'deploy/monitoring/alerts.yml'), 'utf8')) as { groups: unknown[] };
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'claims-platform', labels: { 'app.kubernetes.io/name': 'claims-platform' } },
    spec: { groups: alerts.groups },
  };
  return `# Generated from deploy/monitoring/alerts.yml by scripts/prometheus-rule.ts: edit the rules there.\n${stringify(rule, { lineWidth: 0 })}`;
}

if (require.main === module) writeFileSync(PROMETHEUS_RULE_FILE, prometheusRuleYaml());
