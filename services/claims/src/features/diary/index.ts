export { claimActivityChanged } from './diary-events';
export { claimActivityOverdue, startDiarySweeper } from './diary-overdue';
export { diaryRoutes } from './diary-routes';
export { reconcilePlatformActivities } from './platform-activities';
