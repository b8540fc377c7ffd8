export { escalationGateSchema, escalationSchema, type Escalation } from './escalation-schemas';
export { escalationStore } from './escalation-store';
export { claimEscalationDecided } from './escalations-events';
export { escalationsRoutes } from './escalations-routes';
