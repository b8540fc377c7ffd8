export { binderBuilt } from './binders-events';
export { bindersRoutes } from './binders-routes';
