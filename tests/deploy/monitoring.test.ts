/**
 * deploy/monitoring: the alerting rules are valid Prometheus rules (`promtool check rules`), behave as their
 * unit tests say (`promtool test rules`: each alert fires when it should and not before), and alert only on
 * metrics the platform really exposes; the Prometheus configuration is valid, the Grafana dashboard's queries
 * are valid PromQL on real metrics over the provisioned data source, and the monitoring compose file
 * validates beside the platform's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { typeCheck } from './support/typed-literals';
import { COMPOSE_REQUIRED_ENV } from './support/compose-env';

const root = path.join(__dirname, '../..');
const monitoring = path.join(root, 'deploy/monitoring');
const promtool = (...args: string[]) => execFileSync('promtool', args, { cwd: monitoring, encoding: 'utf8', stdio: 'pipe' });

interface RuleFile {
  groups: { name: string; rules: { alert: string; expr: string }[] }[];
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { expr: string; datasource: { uid: string } }[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

/** Every metric name the gateway, the services and the witness declare. */
const registered = new Set(
  ['packages', 'services', 'gateway']
    .flatMap((dir) => sourceFiles(path.join(root, dir)))
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:name: |counter\(|gauge\(|histogram\()\s*'([a-z_]+)'/g)].map((match) => match[1]),
    ),
);
const PROMQL_WORDS = new Set([
  'sum',
  'rate',
  'increase',
  'max',
  'by',
  'on',
  'and',
  'histogram_quantile',
  'le',
  'job',
  'route',
  'status',
  'deadline',
]);

/** The metric names a PromQL expression reads (label matchers and functions left out). */
function metricsIn(expr: string): string[] {
  return [
    ...expr
      .replace(/\{[^}]*\}/g, '')
      .replace(/\[[^\]]*\]/g, '')
      .matchAll(/[a-z_][a-z0-9_]*/g),
  ]
    .map((match) => match[0].replace(/_bucket$/, ''))
    .filter((name) => !PROMQL_WORDS.has(name) && /_/.test(name));
}

describe('alerting rules', () => {
  it('are valid Prometheus rules', () => {
    expect(promtool('check', 'rules', 'alerts.yml')).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('fire when their unit tests say, and not before', () => {
    expect(promtool('test', 'rules', 'alerts.test.yml')).toMatch(/SUCCESS/);
  });

  it('alert only on metrics the gateway, the services or the witness register', () => {
    const rules = parse(readFileSync(path.join(monitoring, 'alerts.yml'), 'utf8')) as RuleFile;
    for (const rule of rules.groups.flatMap((group) => group.rules)) {
      const metrics = metricsIn(rule.expr);
      expect({ alert: rule.alert, unknown: metrics.filter((name) => !registered.has(name)) }).toEqual({ alert: rule.alert, unknown: [] });
      expect(metrics.length).toBeGreaterThan(0);
    }
  });
});

describe('Prometheus and Grafana', () => {
  const dashboard = JSON.parse(readFileSync(path.join(monitoring, 'grafana/dashboards/claims-platform.json'), 'utf8')) as {
    uid: string;
    panels: Panel[];
  };
  const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');

  it('Prometheus is configured validly, with the alerting rules loaded', () => {
    expect(promtool('check', 'config', 'prometheus.yml')).toMatch(/SUCCESS: 1 rule files found/);
  });

  it('every dashboard query is valid PromQL on metrics the platform registers, over the provisioned data source', () => {
    const datasource = (
      parse(readFileSync(path.join(monitoring, 'grafana/provisioning/datasources/prometheus.yml'), 'utf8')) as {
        datasources: { uid: string }[];
      }
    ).datasources[0].uid;
    const targets = graphs.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel, target })));
    expect(targets.length).toBeGreaterThan(10);
    for (const { panel, target } of targets) {
      expect({ panel: panel.title, datasource: [panel.datasource?.uid, target.datasource.uid] }).toEqual({
        panel: panel.title,
        datasource: [datasource, datasource],
      });
      expect({ panel: panel.title, unknown: metricsIn(target.expr).filter((name) => !registered.has(name)) }).toEqual({
        panel: panel.title,
        unknown: [],
      });
    }
    // promtool parses each query as a recording rule, with Grafana's variables given values
    const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-queries-'));
    try {
      const rules = targets.map(({ target }, i) => ({
        record: `dashboard:query_${i}`,
        expr: target.expr.replace(/\$__rate_interval/g, '5m').replace(/\$job/g, '.*'),
      }));
      writeFileSync(path.join(dir, 'queries.yml'), stringify({ groups: [{ name: 'dashboard', rules }] }));
      expect(execFileSync('promtool', ['check', 'rules', path.join(dir, 'queries.yml')], { encoding: 'utf8' })).toMatch(
        new RegExp(`SUCCESS: ${rules.length} rules found`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is a dashboard by Grafana's own schema (@grafana/schema's declarations, generated from Grafana's CUE kinds; unknown fields refused)", () => {
    const asTyped = (value: unknown) =>
      `import type { Dashboard } from '@grafana/schema';\nexport const dashboard: Dashboard = ${JSON.stringify(value, null, 1)};\n`;
    expect(typeCheck(asTyped(dashboard))).toEqual([]);
    // the check can fail: a misspelt field and a panel without its grid position are refused
    const misspelt = { ...dashboard, panels: [{ ...dashboard.panels[1], gridPoss: dashboard.panels[1].gridPos }] };
    expect(typeCheck(asTyped(misspelt)).length).toBeGreaterThan(0);
    expect(typeCheck(asTyped({ ...dashboard, refresh: 30 })).length).toBeGreaterThan(0);
  });

  it('lays the dashboard out on Grafana’s 24-column grid without overlaps, each panel with a unique id', () => {
    const cells = new Set<string>();
    for (const panel of dashboard.panels) {
      const { x, y, w, h } = panel.gridPos;
      expect(x + w).toBeLessThanOrEqual(24);
      for (let col = x; col < x + w; col++)
        for (let line = y; line < y + h; line++) {
          expect(cells.has(`${col},${line}`)).toBe(false);
          cells.add(`${col},${line}`);
        }
    }
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
  });

  it('the monitoring compose file validates beside the platform’s, and refuses to start Grafana without an admin password', () => {
    const compose = (env: Record<string, string>) =>
      spawnSync('docker-compose', ['-f', 'docker-compose.yml', '-f', 'deploy/monitoring/docker-compose.monitoring.yml', 'config', '-q'], {
        cwd: root,
        env: { PATH: process.env.PATH, ...COMPOSE_REQUIRED_ENV, ...env },
        encoding: 'utf8',
      });
    expect(compose({ GRAFANA_ADMIN_PASSWORD: 'a-long-password' })).toMatchObject({ status: 0 });
    const refused = compose({});
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('GRAFANA_ADMIN_PASSWORD must be set');
  });
});
