export { startDeadlineSweeper } from './deadline-sweep';
export { claimSlaBreached, claimUpdateOverdue } from './deadlines-events';
export { registerDeadlineMetrics } from './deadlines-metrics';
