export { claimContactRecorded } from './contacts-events';
export { contactsRoutes } from './contacts-routes';
