/**
 * Modules the benchmark needs that the root package does not declare: they are loaded from the
 * workspace package that already depends on them (no new dependency, same versions as the platform).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function requireFrom(workspacePackage: string, id: string): any {
  return createRequire(path.join(ROOT, workspacePackage, 'package.json'))(id);
}

export interface PgQueryResult {
  rows: any[];
  rowCount: number | null;
}

export interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
  end(): Promise<void>;
}

/** node-postgres, as the platform's packages use it. */
export function pgClient(connectionString: string): PgClient {
  const { Client } = requireFrom('packages/testing', 'pg');
  return new Client({ connectionString });
}

/** pg-copy-streams is not installed: batched multi-row INSERTs from arrays (unnest) are used instead. */

/** Express 5, as the services use it (for the bare hello-world baseline). */
export function express(): any {
  return requireFrom('services/claims', 'express');
}

/** http-proxy-middleware, as the gateway uses it (for the bare proxy hop baseline). */
export function httpProxyMiddleware(): any {
  return requireFrom('gateway', 'http-proxy-middleware');
}
