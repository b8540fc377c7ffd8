// The schemas first: runs (which evidence-routes reaches through evidence-service) reads evidenceItemSchema as it loads, inside the evidence↔runs cycle.
export { evidenceItemSchema, type EvidenceItem, type EvidenceKind, type Redaction } from './evidence-schemas';
export { EXTENSIONS_BY_TYPE } from './content-type';
export { evidenceAdded, evidenceRedacted, fileScanned } from './evidence-events';
export { evidenceRoutes } from './evidence-routes';
export { evidenceStore } from './evidence-store';
export { pendingFileScans } from './file-rescan';
export { fileScansStore } from './file-scans';
export { evidencePlacements, evidenceStorage } from './file-store';
