export { claimNoteAdded } from './notes-events';
export { notesRoutes } from './notes-routes';
