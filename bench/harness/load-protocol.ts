/** Tasks the load worker runs, and what it answers. */

export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A multipart upload instead of `body`: one PDF (by its bytes, unique per request) of this size in the `file` part. */
  fileBytes?: number;
}

/** One kind of request in a mixed load: its share of the arrivals and the requests it cycles over. */
export interface MixOperation {
  name: string;
  weight: number;
  requests: RequestSpec[];
}

export interface SqlStatement {
  text: string;
  values?: unknown[];
}

export type LoadTask =
  | { kind: 'cannon'; url: string; connections: number; durationSec: number; requests: RequestSpec[] }
  | { kind: 'openloop'; url: string; rate: number; connections: number; durationSec: number; requests: RequestSpec[] }
  /** Weighted operations interleaved; open loop at `rate` arrivals/s, or closed loop (saturation) over `connections` without one. */
  | { kind: 'mix'; url: string; rate?: number; connections: number; durationSec: number; operations: MixOperation[] }
  | { kind: 'upload'; url: string; targets: { path: string; token: string }[]; count: number; concurrency: number; sizeBytes: number }
  | { kind: 'disk'; dir: string; count: number; concurrency: number; sizeBytes: number; fsync: boolean }
  | {
      kind: 'sql';
      databaseUrl: string;
      connections: number;
      durationSec: number;
      statements: SqlStatement[];
      /** Identifiers of rows that exist before a replay (a returning claimant's): replayed as they are, never renamed. */
      existingIds?: string[];
    };

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

export interface MixResult {
  seconds: number;
  /** 2xx responses per second, all operations together. */
  achieved_rps: number;
  errors: number;
  non2xx: number;
  /** What failed, as "<operation> <status>" (status 0: no response) → count. */
  failures: Record<string, number>;
  operations: Record<string, LatencyResult>;
  /** The slowest request (any operation, answered or not) sent in each 10 s of the run, ms: when a tail happened. */
  slowest_ms_by_10s: number[];
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
