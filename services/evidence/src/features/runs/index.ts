export { startRunScheduler } from './run-scheduler';
export { runCreated, runDecided, runSubmitted } from './runs-events';
export { runsRoutes } from './runs-routes';
export { type Decision, type RunState } from './runs-schemas';
export { runsStore } from './runs-store';
