export { currentPeriods, type Period } from './control-periods';
export { controlCreated, controlVersionAdded } from './controls-events';
export { controlsRoutes } from './controls-routes';
export { KEY_PATTERN, type ControlVersion } from './controls-schemas';
export { controlsStore } from './controls-store';
