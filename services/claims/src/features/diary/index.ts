export { claimActivityChanged } from './diary-events';
export { claimActivityOverdue, startDiarySweeper } from './diary-overdue';
export { diaryRoutes } from './diary-routes';
export { HAS_OVERDUE_ACTIVITY } from './diary-service';
export { reconcilePlatformActivities } from './platform-activities';
