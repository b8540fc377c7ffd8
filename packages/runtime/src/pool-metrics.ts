import type { Knex } from '@platform/db';
import { Gauge, type Registry } from 'prom-client';

/** The parts of knex's connection pool (tarn) the gauges read. */
interface TarnPool {
  max: number;
  numUsed(): number;
  numPendingAcquires(): number;
}

/**
 * The request pool's state, read at each scrape: connections in use, callers waiting for one (a queue that
 * keeps growing means DB_POOL_MAX or the database is the bottleneck) and the configured size. `pool` names
 * the pool (`requests`, `relay`).
 */
export function databasePoolGauges(registry: Registry, pools: Record<string, Knex>): void {
  const read = (gauge: Gauge, value: (pool: TarnPool) => number) => {
    for (const [name, db] of Object.entries(pools)) {
      const pool = (db.client as { pool?: TarnPool }).pool;
      if (pool) gauge.set({ pool: name }, value(pool));
    }
  };
  new Gauge({
    name: 'db_pool_connections_in_use',
    help: 'Database connections lent out of the pool now',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      read(this, (pool) => pool.numUsed());
    },
  });
  new Gauge({
    name: 'db_pool_connections_waiting',
    help: 'Callers waiting for a database connection from the pool now',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      read(this, (pool) => pool.numPendingAcquires());
    },
  });
  new Gauge({
    name: 'db_pool_size',
    help: 'Most connections the pool may hold (DB_POOL_MAX for the request pool)',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      read(this, (pool) => pool.max);
    },
  });
}
