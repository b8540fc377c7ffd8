import request from 'supertest';

/** A valid first notice of loss, as a claimant app would send it. */
export function fnolBody(overrides: Record<string, unknown> = {}) {
  return {
    policy_number: `POL-${Math.floor(100000 + Math.random() * 899999)}`,
    claimant: { name: 'Ana Ruiz', email: 'ana@example.com', phone: '+14155550100' },
    loss: { date: '2026-11-20', type: 'auto_glass', description: 'Windscreen cracked by a stone' },
    ...overrides,
  };
}

export async function reportLoss(gatewayUrl: string, body = fnolBody()) {
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
