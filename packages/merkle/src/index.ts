export * from './tree';
export * from './note';
