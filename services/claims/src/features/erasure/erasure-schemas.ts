import type { FromSchema } from '@platform/http';

/**
 * Why the law allows the erasure: GDPR Art. 17(1) (a)–(f) grounds, a CCPA deletion request, or the retention
 * policy (the sweep's). A closed list, so the event and the audit log can carry it without free text.
 */
export const LEGAL_BASES = [
  'no_longer_necessary',
  'consent_withdrawn',
  'objection',
  'unlawful_processing',
  'legal_obligation',
  'child_consent',
  'ccpa_deletion_request',
  'retention_expired',
] as const;

export const erasureRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason', 'legal_basis'],
  properties: {
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'Why, in words (kept in the erasure record only: never in an event or the audit log)',
    },
    legal_basis: { enum: [...LEGAL_BASES] },
  },
} as const;

export type ErasureRequest = FromSchema<typeof erasureRequestSchema>;

export const erasureSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['erasure_id', 'claimant_id', 'claim_ids', 'legal_basis', 'reason', 'erased_by', 'erased_at', 'files_destroyed_at'],
  properties: {
    erasure_id: { type: 'string', format: 'uuid' },
    claimant_id: { type: 'string', format: 'uuid' },
    claim_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, description: "The claimant's claims, each now a tombstone" },
    legal_basis: { enum: [...LEGAL_BASES] },
    reason: { type: 'string' },
    erased_by: { type: 'string', description: 'Who erased: the JWT sub, or `system:retention-sweep`' },
    erased_at: { type: 'string', format: 'date-time' },
    files_destroyed_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: "When the claims' files were gone from storage; null while their removal is being retried (the key is gone already)",
    },
  },
} as const;

export type Erasure = FromSchema<typeof erasureSchema>;

export const BLOCKING_REASONS = ['claim_open', 'legal_hold', 'retention_not_passed'] as const;
export type BlockingReason = (typeof BLOCKING_REASONS)[number];
