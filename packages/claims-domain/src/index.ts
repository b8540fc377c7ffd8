export * from './vocabulary';
export * from './documents';
export * from './adequacy';
export * from './sensitivity';
