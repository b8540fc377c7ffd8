export { claimsRoutes } from './claims-routes';
