export * from './problem';
export * from './validation';
export * from './request-context';
export * from './errors';
export * from './body';
export * from './observability';
export * from './openapi';
export * from './service-app';
