export { accessLinksRoutes } from './access-links-routes';
export { accessLinksStore } from './access-links-store';
