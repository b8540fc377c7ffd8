import { signDevToken } from '@platform/auth';
import type { Refusal } from './witness-store';

/** What the witness needs from the log it watches (the evidence service's audit API). */
export interface LogClient {
  /** The latest checkpoint note (GET /api/evidence/audit/checkpoint). */
  checkpoint(): Promise<string>;
  /** The RFC 9162 consistency proof between two sizes; undefined when the log will not give one (4xx). */
  consistencyProof(from: number, to: number): Promise<Buffer[] | undefined>;
  postCosignature(size: number, line: string): Promise<void>;
  postRefusal(witnessName: string, refusal: Refusal): Promise<void>;
}

export const WITNESS_SCOPES = 'audit:read audit:witness';

/**
 * The bearer token the witness presents: a configured one, or a short-lived JWT it mints with a shared
 * HS256 secret (development and tests, where the services accept such tokens).
 */
export function witnessToken(options: { token?: string; jwtSecret?: string; witnessName: string }): () => Promise<string> {
  if (options.token) return async () => options.token!;
  if (!options.jwtSecret) throw new Error('the witness needs WITNESS_LOG_TOKEN or WITNESS_LOG_JWT_SECRET to call the log');
  return () => signDevToken({ sub: `witness:${options.witnessName}`, scope: WITNESS_SCOPES, secret: options.jwtSecret, expiresIn: '5m' });
}

export function httpLogClient(baseUrl: string, token: () => Promise<string>): LogClient {
  const api = `${baseUrl.replace(/\/+$/, '')}/api/evidence/audit`;
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${api}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${await token()}` },
      signal: AbortSignal.timeout(10000),
    });
    return response;
  };
  const failed = async (what: string, response: Response) => new Error(`${what}: HTTP ${response.status} ${await response.text()}`);
  const post = async (path: string, body: unknown) => {
    const response = await call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw await failed(`POST ${path}`, response);
  };
  return {
    async checkpoint() {
      const response = await call('/checkpoint');
      if (!response.ok) throw await failed('GET checkpoint', response);
      return response.text();
    },
    async consistencyProof(from, to) {
      const response = await call(`/proofs/consistency?from=${from}&to=${to}`);
      if (response.status >= 400 && response.status < 500) return undefined;
      if (!response.ok) throw await failed('GET consistency proof', response);
      const { proof } = (await response.json()) as { proof: string[] };
      return proof.map((hash) => Buffer.from(hash, 'base64'));
    },
    postCosignature: (size, line) => post(`/checkpoints/${size}/cosignatures`, { cosignature: line }),
    postRefusal: (witnessName, refusal) =>
      post('/witness-refusals', {
        witness: witnessName,
        reason: refusal.reason,
        cosigned_checkpoint: refusal.cosignedNote,
        offered_checkpoint: refusal.offeredNote,
        proof: refusal.proof,
        refused_at: refusal.refusedAt,
      }),
  };
}
