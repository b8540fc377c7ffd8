export { claimWithdrawn } from './withdrawal-events';
export { withdrawalRoutes } from './withdrawal-routes';
