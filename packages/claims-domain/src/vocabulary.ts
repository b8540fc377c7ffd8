/**
 * The claim vocabulary. The claims database's CHECK constraints accept exactly these values
 * (services/claims/src/migrations.test.ts holds them together): a new value needs a new migration
 * widening its constraint, never an edit of a released one.
 */

/** The stages of a claim (CONTRACT.md §3), in lifecycle order. */
export const CLAIM_STAGES = [
  'intake',
  'triage',
  'assigned',
  'waiting_on_customer',
  'inspection',
  'estimate',
  'settlement',
  'closed',
] as const;
export type ClaimStage = (typeof CLAIM_STAGES)[number];

export const LOSS_TYPES = [
  'auto_collision',
  'auto_glass',
  'auto_theft',
  'property_water',
  'property_fire',
  'property_theft',
  'property_weather',
  'liability',
  'injury',
  'other',
] as const;
export type LossType = (typeof LOSS_TYPES)[number];

export const CHANNELS = ['email', 'sms', 'portal'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Why a claim closed: a claim closes paid (after settlement), denied (a decision with a rationale), withdrawn or as a duplicate. */
export const CLOSING_REASONS = ['paid', 'denied', 'withdrawn', 'duplicate'] as const;
export type ClosingReason = (typeof CLOSING_REASONS)[number];
