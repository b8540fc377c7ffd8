export { decodeCursor, encodeCursor } from './claim-cursor';
export { claimsListRoutes } from './claims-list-routes';
export { forgetClaimantName, indexClaimantName, indexUnindexedNames, nameIndexKey } from './claimant-name-index';
