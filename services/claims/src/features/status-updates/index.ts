export { claimClosed, claimClosingEventProperties, claimStatusUpdated } from './status-updates-events';
export { statusUpdatesRoutes } from './status-updates-routes';
export { statusUpdatesStore } from './status-updates-store';
