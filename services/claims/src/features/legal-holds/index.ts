export { claimLegalHoldPlaced, claimLegalHoldReleased } from './legal-holds-events';
export { legalHoldsRoutes } from './legal-holds-routes';
