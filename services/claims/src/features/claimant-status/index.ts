export { claimantStatusRoutes } from './claimant-status-routes';
