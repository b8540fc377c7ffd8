export * from './trace-context';
export * from './sdk';
