export * from './service-config';
export * from './run-service';
export * from './virus-scanner';
export * from './repeating-task';
export * from './service-database';
export * from './service-document';
export * from './service-main';
export * from './node-flags';
