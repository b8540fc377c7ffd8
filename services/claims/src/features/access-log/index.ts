export { claimPersonalDataAccessed } from './access-log-events';
export { accessLogRoutes } from './access-log-routes';
export { ACCESS_KINDS, type AccessKind } from './access-log-schemas';
export {
  ACCESS_PURPOSE_HEADER,
  accessLogStore,
  accessPurposeParameter,
  purposeRequiredResponse,
  readerOf,
  type Reader,
} from './access-log-store';
