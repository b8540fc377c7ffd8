export { escalationSchema, type Escalation } from './escalation-schemas';
export { escalationStore } from './escalation-store';
export { claimTriageDetail, claimTriageDetailProperties } from './triage-detail';
export { claimEscalationDecided, claimTriaged } from './triage-events';
export { type Gate } from './triage-policy';
export { triageRoutes } from './triage-routes';
export { triageResultSchema, type TriageResult } from './triage-schemas';
