export * from './problem';
export * from './validation';
export * from './request-context';
export * from './errors';
export * from './body';
export * from './bound-metrics';
export * from './observability';
export * from './openapi';
export * from './service-app';
export * from './client-errors';
export * from './file-names';
export * from './display-text';
/** The TypeScript type of what a JSON Schema (declared `as const`) accepts: types are derived, never restated. */
export type { FromSchema } from 'json-schema-to-ts';
export * from './newest-first-cursor';
export * from './newest-first-page';
export * from './routes';
export * from './periodic-task';
