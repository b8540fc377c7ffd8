export { claimAdjusterKitGenerated } from './adjuster-kits-events';
export { adjusterKitsRoutes } from './adjuster-kits-routes';
