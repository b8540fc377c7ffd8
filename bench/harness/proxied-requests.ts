import { signDevToken } from '@platform/auth';
import { TEST_JWT_SECRET } from '@platform/testing';
import type { RequestSpec } from './load-protocol';

/** The gateway's environment in front of one bare upstream for both services (proxy scenario and bench/lab/gateway-ab.ts). */
export function gatewayToUpstreamEnv(upstreamUrl: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    CLAIMS_URL: upstreamUrl,
    EVIDENCE_URL: upstreamUrl,
    PUBLIC_RATE_LIMIT: '0',
    SHUTDOWN_GRACE_MS: '0',
  };
}

/** A claimant status read: public group, no platform credentials, answered by the upstream. */
export const PUBLIC_GET: RequestSpec = {
  method: 'GET',
  path: '/api/claims/public/claims/7c9e6679-7425-40de-944b-e07fc1f90ae7/status',
  headers: { authorization: 'Bearer claimant-token' },
};

/** An internal read with a valid JWT, which the gateway verifies and a bare hop forwards unread. */
export async function jwtGet(): Promise<RequestSpec> {
  const token = await signDevToken({ sub: 'bench', scope: 'evidence:read', secret: TEST_JWT_SECRET });
  return { method: 'GET', path: '/api/evidence/controls', headers: { authorization: `Bearer ${token}` } };
}
