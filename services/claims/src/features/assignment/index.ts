export { adjusterDirectory } from './adjuster-directory';
export { claimAssigneeChanged } from './assignment-events';
export { assignmentRoutes, expectedVersionOf } from './assignment-routes';
export { SUBJECT_PATTERN } from './assignment-schemas';
