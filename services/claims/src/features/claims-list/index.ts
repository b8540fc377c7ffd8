export { decodeCursor, encodeCursor } from './claim-cursor';
export { claimsListRoutes } from './claims-list-routes';
