/**
 * Examples for the OpenAPI document: one control, run and its evidence told consistently across every
 * operation that shows them (the document tests validate each against its schema).
 */
const CONTROL_ID = '1f2e3d4c-5b6a-4978-8a6b-5c4d3e2f1a0b';
const CONTROL_VERSION_ID = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
const RUN_ID = '4c3b2a19-0f8e-4d7c-a6b5-a4b3c2d1e0f9';
const EVIDENCE_ID = 'aa11bb22-cc33-4d44-8e55-ff6677889900';

export const createControlRequestExample = {
  key: 'AC-2',
  title: 'Account management',
  description: 'Accounts are created, reviewed and removed under an approved process',
  owner: 'it-security',
  frequency: 'quarterly',
  test_procedure: 'Sample ten joiners and leavers; check approvals and removal dates',
  evidence_requirements: ['Access review sign-off', 'Leaver tickets'],
};

export const controlExample = {
  control_id: CONTROL_ID,
  ...createControlRequestExample,
  created_by: 'auditor-carol',
  created_at: '2026-10-01T09:00:00Z',
  current_version: { control_version_id: CONTROL_VERSION_ID, version: 1, created_at: '2026-10-01T09:00:00Z' },
};

const { key, ...versionFields } = createControlRequestExample;

export const controlWithVersionsExample = {
  ...controlExample,
  key,
  versions: [
    {
      control_version_id: CONTROL_VERSION_ID,
      version: 1,
      ...versionFields,
      created_by: 'auditor-carol',
      created_at: '2026-10-01T09:00:00Z',
    },
  ],
};

export const createRunRequestExample = { control_version_id: CONTROL_VERSION_ID, period_start: '2026-07-01', period_end: '2026-09-30' };

export const runExample = {
  run_id: RUN_ID,
  ...createRunRequestExample,
  status: 'open',
  created_by: 'auditor-carol',
  created_at: '2026-10-02T09:00:00Z',
};

export const runStateExample = {
  ...runExample,
  status: 'in_review',
  control_id: CONTROL_ID,
  control_key: 'AC-2',
  control_version: 1,
  submitted_by: 'auditor-carol',
  submitted_at: '2026-10-05T16:00:00Z',
};

export const addEvidenceRequestExample = {
  kind: 'link',
  title: 'Q3 access review sign-off',
  url: 'https://tickets.example.com/SEC-1042',
  collected_at: '2026-09-30T17:00:00Z',
  source: 'ticketing',
};

export const evidenceExample = {
  evidence_id: EVIDENCE_ID,
  run_id: RUN_ID,
  kind: 'link',
  title: 'Q3 access review sign-off',
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  size_bytes: 142,
  content_type: 'application/json',
  submitted_by: 'auditor-carol',
  submitted_at: '2026-10-03T10:00:00Z',
  out_of_period: false,
  supersedes: null,
  collected_at: '2026-09-30T17:00:00Z',
};

export const decisionRequestExample = { decision: 'approved', rationale: 'Every sampled leaver was removed within a day' };

export const decisionExample = {
  decision_id: 'bb22cc33-dd44-4e55-8f66-007788990011',
  run_id: RUN_ID,
  ...decisionRequestExample,
  decided_by: 'approver-dan',
  decided_at: '2026-10-06T11:00:00Z',
};

export const runIds = { RUN_ID };
