/**
 * deploy/monitoring: the alerting rules are valid Prometheus rules (`promtool check rules`), behave as their
 * unit tests say (`promtool test rules`: each alert fires when it should and not before), and alert only on
 * metrics the platform really exposes.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const root = path.join(__dirname, '../..');
const monitoring = path.join(root, 'deploy/monitoring');
const promtool = (...args: string[]) => execFileSync('promtool', args, { cwd: monitoring, encoding: 'utf8', stdio: 'pipe' });

interface RuleFile {
  groups: { name: string; rules: { alert: string; expr: string }[] }[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
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
    const registered = new Set(
      ['packages', 'services', 'gateway']
        .flatMap((dir) => sourceFiles(path.join(root, dir)))
        .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/(?:name: |counter\(|gauge\(|histogram\()\s*'([a-z_]+)'/g)].map((match) => match[1])),
    );
    const functions = new Set(['sum', 'rate', 'increase', 'max', 'by', 'on', 'and', 'histogram_quantile', 'le', 'job', 'route', 'status']);
    for (const rule of rules.groups.flatMap((group) => group.rules)) {
      const metrics = [...rule.expr.replace(/\{[^}]*\}/g, '').matchAll(/[a-z_][a-z0-9_]*/g)]
        .map((match) => match[0].replace(/_bucket$/, ''))
        .filter((name) => !functions.has(name) && /_/.test(name));
      expect({ alert: rule.alert, unknown: metrics.filter((name) => !registered.has(name)) }).toEqual({ alert: rule.alert, unknown: [] });
      expect(metrics.length).toBeGreaterThan(0);
    }
  });
});
