import request from 'supertest';
import { fnolBody, uniquePolicyNumber } from '@platform/testing';

/**
 * `fnolBody(overrides)` on a policy of its own: the journeys share a platform, where claims repeated on one
 * policy would raise triage's fraud gate.
 */
export function ownPolicyFnol(overrides: Record<string, unknown> = {}) {
  return fnolBody({ policy_number: uniquePolicyNumber(), ...overrides });
}

export async function reportLoss(gatewayUrl: string, body = ownPolicyFnol()) {
  const response = await request(gatewayUrl).post('/api/claims/public/claims').send(body);
  if (response.status !== 201) throw new Error(`intake answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as { claim_id: string; access_token: string; claim_number: string };
}

/** The audit records the evidence service holds for one claim, read through the gateway. */
export async function auditRecordsOfClaim(gatewayUrl: string, authorization: string, claimId: string) {
  const response = await request(gatewayUrl)
    .get('/api/evidence/audit/records')
    .query({ source: 'claims', entity_id: claimId })
    .set('Authorization', authorization);
  if (response.status !== 200) throw new Error(`audit records answered ${response.status}`);
  return response.body.items as { action: string; entity_id: string; event_id: string; source: string }[];
}
