export * from './vocabulary';
export * from './documents';
export * from './adequacy';
