export { startClaimEventConsumer } from './claim-events-consumer';
