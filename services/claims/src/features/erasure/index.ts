export { claimErasureDetail, claimErasureDetailProperties } from './erasure-detail';
export { claimClaimantErased } from './erasure-events';
export { erasureRoutes } from './erasure-routes';
export type { DestroyClaimantKey, ErasureOptions } from './erasure-service';
export { RETENTION_SWEEP_ACTOR, startRetentionSweeper, sweepRetention, type ErasedFileStorage } from './erasure-sweep';
