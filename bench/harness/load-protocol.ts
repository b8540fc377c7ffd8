/** Tasks the load worker runs, and what it answers. */

export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface SqlStatement {
  text: string;
  values?: unknown[];
}

export type LoadTask =
  | { kind: 'cannon'; url: string; connections: number; durationSec: number; requests: RequestSpec[] }
  | { kind: 'openloop'; url: string; rate: number; connections: number; durationSec: number; requests: RequestSpec[] }
  | { kind: 'upload'; url: string; targets: { path: string; token: string }[]; count: number; concurrency: number; sizeBytes: number }
  | { kind: 'disk'; dir: string; count: number; concurrency: number; sizeBytes: number; fsync: boolean }
  | { kind: 'sql'; databaseUrl: string; connections: number; durationSec: number; statements: SqlStatement[] };

export interface CannonResult {
  /** 2xx responses per second. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
}

export interface LatencyResult {
  count: number;
  errors: number;
  non2xx: number;
  achieved_rps: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface TransferResult {
  seconds: number;
  bytes: number;
  mib_per_s: number;
  statuses: Record<string, number>;
}

export interface SqlResult {
  tps: number;
  done: number;
  errors: number;
  first_error?: string;
  seconds: number;
}
