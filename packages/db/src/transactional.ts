import type { Knex } from 'knex';

export type Transactional<S> = S & {
  /** Runs `work` with the same service rebuilt on one transaction: everything it writes commits together. */
  transactional<R>(work: (service: S) => Promise<R>): Promise<R>;
};

/**
 * Builds a service from a factory `(db) => service` and adds `transactional`, which rebuilds it on a
 * transaction handle. No query inside escapes the transaction, which matters on embedded PGlite: it
 * has one connection, and a query outside the open transaction would wait for it forever.
 */
export function withTransactional<S extends object>(build: (db: Knex) => S, db: Knex): Transactional<S> {
  const service = build(db) as Transactional<S>;
  service.transactional = (work) => db.transaction((trx) => work(build(trx)));
  return service;
}
