export { startIdempotencyPurge } from './idempotency-purge';
export { claimCreated } from './intake-events';
export { intakeRoutes } from './intake-routes';
export { DOCUMENT_TYPES } from './required-documents';
