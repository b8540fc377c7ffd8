import type { RequestSpec } from './load-protocol';

/** A valid first notice of loss (CONTRACT.md §3), the body every intake of the benchmark sends. */
export function fnolBody(index = 0): Record<string, unknown> {
  return {
    policy_number: `POL-${String(100000 + (index % 899999)).padStart(6, '0')}`,
    claimant: { name: 'Ana Ruiz', email: 'ana@example.com', phone: '+14155550100' },
    loss: {
      date: '2026-11-20',
      type: 'auto_collision',
      description: 'Rear-ended at a light',
      location: { address_line: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
    },
    injuries: false,
    police_report_number: 'PR-77',
    estimated_amount: { amount: '2500.00', currency: 'USD' },
    preferred_channel: 'email',
    language: 'en',
  };
}

export const INTAKE_PATH = '/api/claims/public/claims';

export function intakeRequest(): RequestSpec {
  return { method: 'POST', path: INTAKE_PATH, headers: { 'content-type': 'application/json' }, body: JSON.stringify(fnolBody()) };
}

export interface CreatedClaim {
  claim_id: string;
  access_token: string;
  claim_number: string;
}

export async function reportLoss(baseUrl: string, index = 0): Promise<CreatedClaim> {
  const response = await fetch(`${baseUrl}${INTAKE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fnolBody(index)),
  });
  const body = (await response.json()) as CreatedClaim;
  if (response.status !== 201) throw new Error(`intake answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** `count` claims through the public intake, a few at a time. */
export async function reportLosses(baseUrl: string, count: number, concurrency = 8): Promise<CreatedClaim[]> {
  const claims: CreatedClaim[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) claims.push(await reportLoss(baseUrl, next++));
    }),
  );
  return claims;
}

/** The claimant status reads of `claims`, cycled by the load generator. */
export function statusRequests(claims: CreatedClaim[]): RequestSpec[] {
  return claims.map((claim) => ({
    method: 'GET',
    path: `${INTAKE_PATH}/${claim.claim_id}/status`,
    headers: { authorization: `Bearer ${claim.access_token}` },
  }));
}
