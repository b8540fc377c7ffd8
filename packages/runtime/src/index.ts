export * from './service-config';
export * from './run-service';
