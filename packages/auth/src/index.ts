export * from './jwt';
export * from './middleware';
export * from './claimant-token';
export * from './auth-variables';
export * from './subject';
