import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import { bearer } from '@platform/testing';
import { fileClaim } from './claims-test-service';

/** Test helpers of the claims workflow features. */
export const daysAgo = (days: number) => new Date(Date.now() - days * 86400_000).toISOString().slice(0, 10);
export const daysAhead = (days: number) => new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);

export interface TestClaimFields {
  policy_number?: string;
  email?: string | null;
  phone?: string | null;
  loss_type?: string;
  loss_date?: string;
  description?: string;
  injuries?: boolean;
  police_report_number?: string | null;
  estimated_amount?: string | null;
  stage?: string;
  required_documents?: { type: string; received: boolean }[];
}

/**
 * Inserts a claim row as intake leaves it (stage intake), with its own policy number, email and phone
 * so claims of other tests in the same database never look like repeat claims or shared contacts.
 * The workflow tests arrange claims this way so they do not depend on the intake endpoint.
 */
export async function insertTestClaim(
  db: Knex,
  fields: TestClaimFields = {},
): Promise<{ claim_id: string; claim_number: string; policy_number: string }> {
  const tag = randomBytes(4).toString('hex');
  const digits = String(parseInt(tag, 16) % 10_000_000).padStart(7, '0');
  const id = randomUUID();
  const now = new Date();
  // a claimant of its own, without blind indexes or a data key (as claims from before encryption); none on a
  // database migrated only up to before claimants existed (0024), as migration tests arrange
  const claimantId = (await db.schema.hasTable('claimants')) ? randomUUID() : undefined;
  if (claimantId) await db('claimants').insert({ id: claimantId });
  const row = {
    id,
    ...(claimantId ? { claimant_id: claimantId } : {}),
    claim_number: `CLM-2026-${digits}${tag.slice(0, 2)}`.replace(/[a-f]/g, '9'),
    policy_number: fields.policy_number ?? `POL-${tag}`,
    claimant_name: 'Ana Ruiz',
    claimant_email: fields.email === undefined ? `ana.${tag}@example.com` : fields.email,
    claimant_phone: fields.phone === undefined ? `+1415${digits}` : fields.phone,
    loss_date: fields.loss_date ?? daysAgo(2),
    loss_type: fields.loss_type ?? 'auto_collision',
    loss_description: fields.description ?? 'Rear-ended at a light',
    injuries: fields.injuries ?? false,
    police_report_number: fields.police_report_number === undefined ? 'PR-77' : fields.police_report_number,
    estimated_amount: fields.estimated_amount === undefined ? '2500.00' : fields.estimated_amount,
    estimated_currency: fields.estimated_amount === null ? null : 'USD',
    preferred_channel: 'email',
    language: 'en',
    stage: fields.stage ?? 'intake',
    access_token_hash: 'f'.repeat(64),
    required_documents: JSON.stringify(
      fields.required_documents ?? [
        { type: 'photos_of_damage', received: false },
        { type: 'repair_estimate', received: false },
      ],
    ),
    received_at: now,
    acknowledge_by: new Date(now.getTime() + 86400_000),
    acknowledged_at: now,
    first_contact_due: new Date(now.getTime() + 86400_000),
    next_update_due: null,
  };
  await db('claims').insert(row);
  return { claim_id: id, claim_number: row.claim_number, policy_number: row.policy_number };
}

/**
 * Files a claim through the public intake endpoint, with its own policy number, email and phone
 * unless given; stage-only fields (`stage`, `required_documents`) are for `insertTestClaim`.
 */
export async function fileTestClaim(
  url: string,
  fields: Omit<TestClaimFields, 'stage' | 'required_documents'> = {},
): Promise<{ claim_id: string; claim_number: string; policy_number: string; access_token: string }> {
  const tag = randomBytes(4).toString('hex');
  const digits = String(parseInt(tag, 16) % 10_000_000).padStart(7, '0');
  const policyNumber = fields.policy_number ?? `POL-${tag}`;
  const claimant: Record<string, string> = { name: 'Ana Ruiz' };
  const email = fields.email === undefined ? `ana.${tag}@example.com` : fields.email;
  const phone = fields.phone === undefined ? `+1415${digits}` : fields.phone;
  if (email) claimant.email = email;
  if (phone) claimant.phone = phone;
  const body: Record<string, unknown> = {
    policy_number: policyNumber,
    claimant,
    loss: {
      date: fields.loss_date ?? daysAgo(2),
      type: fields.loss_type ?? 'auto_collision',
      description: fields.description ?? 'Rear-ended at a light',
    },
    injuries: fields.injuries ?? false,
    police_report_number: fields.police_report_number === undefined ? 'PR-77' : (fields.police_report_number ?? undefined),
    estimated_amount: fields.estimated_amount === null ? undefined : { amount: fields.estimated_amount ?? '2500.00', currency: 'USD' },
    preferred_channel: email ? 'email' : 'sms',
  };
  const filed = await fileClaim(url, body);
  return { claim_id: filed.claim_id, claim_number: filed.claim_number, policy_number: policyNumber, access_token: filed.access_token };
}

export const as = {
  writer: () => bearer('claims:read claims:write', 'adjuster-ann'),
  decider: () => bearer('claims:read claims:write claims:decide', 'supervisor-sam'),
  reader: () => bearer('claims:read', 'viewer-vic'),
};
