export * from './cosignature';
export * from './log-client';
export * from './witness';
export * from './witness-config';
export * from './witness-store';
export * from './run-witness';
export * from './standalone';
