/** The claim vocabulary lives in @platform/claims-domain, shared with the web pages. */
export {
  CLAIM_STAGES,
  LOSS_TYPES,
  CHANNELS,
  CLOSING_REASONS,
  type ClaimStage,
  type LossType,
  type Channel,
  type ClosingReason,
} from '@platform/claims-domain';
