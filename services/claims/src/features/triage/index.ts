export { claimTriageDetail, claimTriageDetailProperties } from './triage-detail';
export { claimTriaged } from './triage-events';
export { triageRoutes } from './triage-routes';
export { triageResultSchema, type TriageResult } from './triage-schemas';
