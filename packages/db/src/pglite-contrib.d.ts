/** The package exports its contrib extensions by subpath, which `moduleResolution: node10` cannot see; Node's require does. */
declare module '@electric-sql/pglite/contrib/pg_trgm' {
  import type { Extension } from '@electric-sql/pglite';
  export const pg_trgm: Extension;
}
