export { CLAIM_EVENTS_CONSUMER, claimEventAuditRecord, claimEventHandler, startClaimEventConsumer } from './claim-events-consumer';
