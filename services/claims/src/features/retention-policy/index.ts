export { retentionPolicyRoutes } from './retention-policy-routes';
export type { RetentionDays, RetentionPolicy } from './retention-policy-schemas';
export { retentionPolicyStore } from './retention-policy-store';
