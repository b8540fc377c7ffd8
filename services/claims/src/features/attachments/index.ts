export { pendingAttachmentScans } from './attachment-rescan';
export { attachmentPlacements, attachmentStorage } from './attachment-storage';
export { claimAttachmentAdded, claimAttachmentScanned } from './attachments-events';
export { registerAttachmentScanMetrics } from './attachments-metrics';
export { attachmentsRoutes } from './attachments-routes';
export { scanNotice } from './attachments-service';
export { attachmentsStore } from './attachments-store';
export { destroyClaimFiles } from './destroy-claim-files';
export { claimFiles, ClaimFileUnreadable, type ClaimFiles } from './claim-files';
