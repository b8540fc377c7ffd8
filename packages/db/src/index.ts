export * from './database';
export * from './transactional';
export type { Knex } from 'knex';
export * from './cursor';
export * from './privileges';
export * from './one-statement';
export * from './prepared-statement';
