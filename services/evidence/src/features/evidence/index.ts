export { EXTENSIONS_BY_TYPE } from './content-type';
export { evidenceAdded, fileScanned } from './evidence-events';
export { evidenceRoutes } from './evidence-routes';
export { evidenceItemSchema, type EvidenceItem, type EvidenceKind } from './evidence-schemas';
export { evidenceStore } from './evidence-store';
export { rescanPendingFiles } from './file-rescan';
export { fileScansStore } from './file-scans';
export { evidencePlacements, evidenceStorage } from './file-store';
