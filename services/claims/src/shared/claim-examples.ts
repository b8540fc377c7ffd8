/**
 * Examples for the OpenAPI document: one claim told consistently across every operation that shows it
 * (the document tests validate each against its schema).
 */
const CLAIM_ID = '6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60';
const TRIAGE_ID = '0b8e7d6c-5a4b-4c3d-8e2f-1a0b9c8d7e6f';
const ESCALATION_ID = '2d3e4f50-6a7b-4c8d-9e0f-a1b2c3d4e5f6';
const ATTACHMENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const PORTAL = 'https://portal.example.com/claims/CLM-2026-000123';

export const requiredDocumentsExample = [
  { type: 'photos_of_damage', received: true },
  { type: 'police_report', received: false },
  { type: 'repair_estimate', received: false },
];

export const intakeRequestExample = {
  policy_number: 'POL-123456',
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

export const statusUpdateRequestExample = {
  channel: 'email',
  stage: 'inspection',
  what_happened: 'Your adjuster reviewed the photos you sent.',
  what_happens_next: 'An inspector will look at the car at the body shop you chose.',
  what_we_need_from_you: 'Please book an inspection slot.',
  expected_next_update_by: '2026-11-27',
  cta: { label: 'Book an inspection', url: `${PORTAL}/inspection` },
  contact: { phone: '+14155550199', email: 'claims@example.com' },
  portal_url: PORTAL,
  language: 'en',
};

/** Closing a claim as denied: the reason, the rationale, and the status update into `closed`. */
export const closingRequestExample = {
  reason: 'denied',
  rationale: 'The policy excludes flood damage (section 4.2); the loss was caused by flooding.',
  status_update: {
    channel: 'email',
    stage: 'closed',
    what_happened: 'We reviewed your claim and cannot pay it: your policy does not cover flood damage.',
    what_happens_next: 'You can ask us to review this decision within 60 days.',
    what_we_need_from_you: null,
    contact: { phone: '+14155550199', email: 'claims@example.com' },
    language: 'en',
  },
};

export const statusUpdateExample = { claim_id: CLAIM_ID, ...statusUpdateRequestExample, adequacy_score: 1, adequacy_missing: [] };

export const acknowledgementExample = {
  claim_id: CLAIM_ID,
  channel: 'email',
  stage: 'intake',
  what_happened: 'We received your claim CLM-2026-000123.',
  what_happens_next: 'An adjuster reviews it and contacts you.',
  what_we_need_from_you: null,
  expected_next_update_by: '2026-11-23',
  cta: null,
  contact: { phone: '+14155550199', email: 'claims@example.com' },
  portal_url: PORTAL,
  language: 'en',
  adequacy_score: 1,
  adequacy_missing: [],
};

export const intakeResponseExample = {
  claim_id: CLAIM_ID,
  claim_number: 'CLM-2026-000123',
  access_token: 'q7Xo0d3vK1mZ8sR2tY5wB9nC4eF6gH0j',
  stage: 'intake',
  received_at: '2026-11-22T10:00:00Z',
  required_documents: requiredDocumentsExample.map((document) => ({ ...document, received: false })),
  status: acknowledgementExample,
};

export const attachmentExample = {
  attachment_id: ATTACHMENT_ID,
  filename: 'rear-bumper.jpg',
  content_type: 'image/jpeg',
  size_bytes: 482133,
  sha256: 'b5d4045c3f466fa91fe2cc6abe79232a1a57cdf104f7a26e716e0a1e2789df78',
  document_type: 'photos_of_damage',
  received_at: '2026-11-22T10:05:00Z',
  scan_status: 'clean',
};

export const triageExample = {
  triage_id: TRIAGE_ID,
  claim_id: CLAIM_ID,
  policy_version: '2026-11-01.1',
  ran_at: '2026-11-22T11:00:00Z',
  ran_by: 'adjuster-alice',
  score: 42,
  queue: 'complex',
  rule_hits: [{ rule_id: 'injury-reported', description: 'The claimant reported injuries', effect: 'gate:injury' }],
  escalation_gates: [{ gate: 'injury', reason: 'Injuries were reported' }],
  outcome: 'pending_human_decision',
  escalation_id: ESCALATION_ID,
};

export const escalationExample = {
  escalation_id: ESCALATION_ID,
  claim_id: CLAIM_ID,
  triage_id: TRIAGE_ID,
  status: 'decided',
  gates: triageExample.escalation_gates,
  proposed_queue: 'complex',
  decision: 'accept',
  queue: 'complex',
  rationale: 'Injury confirmed by the claimant on the phone',
  decided_by: 'lead-bob',
  decided_at: '2026-11-22T12:00:00Z',
  created_at: '2026-11-22T11:00:00Z',
};

export const claimExample = {
  claim_id: CLAIM_ID,
  claim_number: 'CLM-2026-000123',
  policy_number: 'POL-123456',
  claimant_id: '0b7c2f4e-5d1a-4c3b-9e8f-7a6d5c4b3a21',
  claimant: { name: 'Ana Ruiz', email: 'ana@example.com', phone: '+14155550100' },
  loss: intakeRequestExample.loss,
  injuries: false,
  police_report_number: 'PR-77',
  estimated_amount: { amount: '2500.00', currency: 'USD' },
  preferred_channel: 'email',
  language: 'en',
  time_zone: 'America/Los_Angeles',
  stage: 'inspection',
  queue: 'complex',
  assignee: 'adjuster-7',
  version: 4,
  closing: null,
  required_documents: requiredDocumentsExample,
  received_at: '2026-11-22T10:00:00Z',
  acknowledge_by: '2026-11-23T10:00:00Z',
  acknowledged_at: '2026-11-22T10:00:00Z',
  first_contact_due: '2026-11-24T10:00:00Z',
  first_contact_made_at: null,
  next_update_due: '2026-11-28T00:00:00Z',
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T13:00:00Z',
};

export const timelineExample = [
  {
    audit_id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
    action: 'claim.created',
    actor: 'claimant',
    reason: null,
    data: { stage: 'intake' },
    occurred_at: '2026-11-22T10:00:00Z',
  },
];

export const claimIds = { CLAIM_ID, ATTACHMENT_ID };

export const closingExample = {
  claim_id: CLAIM_ID,
  stage: 'closed',
  reason: closingRequestExample.reason,
  rationale: closingRequestExample.rationale,
  closed_at: '2026-11-24T10:15:00.000Z',
  update_id: '7d0c2b1e-4f3a-4b8e-9c1d-2e5f6a7b8c9d',
  status_update: {
    claim_id: CLAIM_ID,
    ...closingRequestExample.status_update,
    expected_next_update_by: null,
    cta: null,
    portal_url: null,
    adequacy_score: 0.5,
    adequacy_missing: ['expected_next_update_by'],
  },
};
