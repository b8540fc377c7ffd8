export { DEFAULT_TRIAGE_POLICY } from './default-policy';
export { assertPolicyShape, evaluatePolicy, type EscalationGate } from './evaluate-policy';
export { deriveFacts, type ClaimHistory, type TriageFacts } from './triage-facts';
export { GATES, QUEUES, raisedGatesSchema, type Gate, type Queue, type TriagePolicyParameters } from './triage-policy';
export { triagePolicyRoutes } from './triage-policy-routes';
export { triagePolicyStore } from './triage-policy-store';
