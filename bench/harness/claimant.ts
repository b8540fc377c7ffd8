import { fnolBody } from '@platform/testing';
import type { RequestSpec } from './load-protocol';

/** The notice of loss every intake of the benchmark sends (`fnolBody` of @platform/testing), on the index's policy. */
export function fnolBodyOfIndex(index = 0): Record<string, unknown> {
  return fnolBody({ policy_number: `POL-${String(100000 + (index % 899999)).padStart(6, '0')}` });
}

export const INTAKE_PATH = '/api/claims/public/claims';

export function intakeRequest(): RequestSpec {
  return { method: 'POST', path: INTAKE_PATH, headers: { 'content-type': 'application/json' }, body: JSON.stringify(fnolBodyOfIndex()) };
}

export interface CreatedClaim {
  claim_id: string;
  access_token: string;
  claim_number: string;
}

/**
 * The same notice of loss from a claimant of the index's own (name, email, phone): with encryption on, a new
 * claimant is a new data key, where `fnolBodyOfIndex`'s one claimant is matched again and again.
 */
export function fnolBodyOfOwnClaimant(index: number): Record<string, unknown> {
  const digits = String(index % 10_000_000).padStart(7, '0');
  return { ...fnolBodyOfIndex(index), claimant: { name: `Ana Ruiz ${index}`, email: `ana.${index}@example.com`, phone: `+1415${digits}` } };
}

export function ownClaimantIntakeRequests(count: number): RequestSpec[] {
  return Array.from({ length: count }, (_, index) => ({
    method: 'POST',
    path: INTAKE_PATH,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fnolBodyOfOwnClaimant(index)),
  }));
}

/** A progress update of a claim still in intake (the lifecycle allows any number of them), as staff send it. */
export function progressUpdateBody(): string {
  const nextWeek = new Date(Date.now() + 7 * 86400000).toISOString().slice(0, 10);
  return JSON.stringify({
    channel: 'portal',
    stage: 'intake',
    what_happened: 'Your adjuster is reviewing the documents you sent.',
    what_happens_next: 'We will call you to agree the next steps.',
    expected_next_update_by: nextWeek,
    language: 'en',
  });
}

export async function reportLoss(
  baseUrl: string,
  index = 0,
  bodyOf: (index: number) => Record<string, unknown> = fnolBodyOfIndex,
): Promise<CreatedClaim> {
  const response = await fetch(`${baseUrl}${INTAKE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(bodyOf(index)),
  });
  const body = (await response.json()) as CreatedClaim;
  if (response.status !== 201) throw new Error(`intake answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** `count` claims through the public intake, a few at a time. */
export async function reportLosses(
  baseUrl: string,
  count: number,
  concurrency = 8,
  bodyOf: (index: number) => Record<string, unknown> = fnolBodyOfIndex,
): Promise<CreatedClaim[]> {
  const claims: CreatedClaim[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) claims.push(await reportLoss(baseUrl, next++, bodyOf));
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
