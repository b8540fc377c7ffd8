export * from './config';
export * from './service';
export * from './migrations';
