/** The targets of issue 6: each figure, its threshold, and whether this run met it. */
export interface Target {
  key: string;
  op: '<' | '<=' | '>=' | 'reported';
  threshold?: number;
}

export const TARGETS: Target[] = [
  { key: 'gateway.added_latency_p50_ms', op: '<', threshold: 0.5 },
  { key: 'gateway.added_latency_p99_ms', op: '<', threshold: 3 },
  { key: 'gateway.throughput_ratio_vs_bare_hop', op: '>=', threshold: 0.9 },
  { key: 'gateway.jwt_ratio_vs_bare_hop', op: '>=', threshold: 0.9 },
  { key: 'gateway.body_1mib_ratio_vs_bare_hop', op: '>=', threshold: 0.9 },
  { key: 'gateway.throughput_ratio_vs_nginx', op: 'reported' },
  { key: 'intake.throughput_ratio_vs_db', op: '>=', threshold: 0.7 },
  { key: 'intake.cost_growth_10x', op: '<=', threshold: 1.25 },
  { key: 'intake.cost_growth_100x', op: '<=', threshold: 1.25 },
  { key: 'status.throughput_ratio_vs_hello', op: '>=', threshold: 0.5 },
  { key: 'events.end_to_end_p50_ms', op: 'reported' },
  { key: 'events.end_to_end_p99_ms', op: '<', threshold: 50 },
  { key: 'audit.verify_ratio_vs_sha256', op: '>=', threshold: 0.3 },
  { key: 'audit.rss_growth_mb', op: '<', threshold: 50 },
  { key: 'audit.cost_growth_10x', op: '<=', threshold: 1.25 },
  { key: 'audit.cost_growth_100x', op: '<=', threshold: 1.25 },
  { key: 'audit.inclusion_proof_p99_ms', op: '<', threshold: 20 },
  { key: 'audit.appends_per_s', op: 'reported' },
  { key: 'audit.verify_ratio_vs_sha256_one_shot', op: 'reported' },
  { key: 'upload.rss_growth_mb', op: '<', threshold: 16 },
  { key: 'upload.throughput_ratio_vs_disk', op: '>=', threshold: 0.5 },
  { key: 'binder.seconds_per_10k_evidence', op: 'reported' },
  { key: 'binder.rss_growth_mb', op: '<', threshold: 50 },
  { key: 'search.p99_ms_at_100k', op: '<', threshold: 50 },
  { key: 'financials.p99_ms_at_10k_payments', op: '<', threshold: 50 },
  { key: 'mixed.sustained_rps', op: 'reported' },
  { key: 'mixed.p99_ms_status', op: 'reported' },
  { key: 'mixed.p99_ms_intake', op: 'reported' },
  { key: 'mixed.p99_ms_upload', op: 'reported' },
  { key: 'mixed.p99_ms_list', op: 'reported' },
  { key: 'mixed.p99_ms_status_update', op: 'reported' },
  { key: 'mixed.errors', op: '<=', threshold: 0 },
  { key: 'mixed.claim_to_audit_p99_ms', op: 'reported' },
  { key: 'mixed.rss_slope_mb_per_10min', op: '<', threshold: 5 },
  // issue 34: the portal downloads only the portal's code (bench/harness/web-bundle.ts)
  { key: 'web.portal_js_gzip_kb', op: '<=', threshold: 80 },
  { key: 'web.workbench_js_gzip_kb', op: 'reported' },
  { key: 'web.examiner_js_gzip_kb', op: 'reported' },
  // issue 37: sealing personal fields costs intake and the status read at most a tenth (bench/scenarios/privacy.ts)
  { key: 'privacy.intake_ratio_encrypted', op: '>=', threshold: 0.9 },
  { key: 'privacy.status_ratio_encrypted', op: '>=', threshold: 0.9 },
];

export interface TargetResult {
  value: number | null;
  target: string;
  met: boolean;
}

function lookup(results: Record<string, any>, key: string): number | null {
  const [group, name] = key.split('.');
  const value = results[group]?.[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function evaluateTargets(results: Record<string, any>): Record<string, TargetResult> {
  const evaluated: Record<string, TargetResult> = {};
  for (const { key, op, threshold } of TARGETS) {
    const value = lookup(results, key);
    let met = value !== null;
    if (value !== null && threshold !== undefined) {
      if (op === '<') met = value < threshold;
      else if (op === '<=') met = value <= threshold;
      else if (op === '>=') met = value >= threshold;
    }
    evaluated[key] = { value, target: op === 'reported' ? 'reported' : `${op} ${threshold}`, met };
  }
  return evaluated;
}
