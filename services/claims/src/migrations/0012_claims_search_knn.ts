import type { Migration } from '@platform/db';

/**
 * The name index as a GiST trigram index, so the name part of a search is read nearest first
 * (`ORDER BY search <<-> name`, k-nearest) and stops after a page, instead of ranking every claim whose
 * name passes the similarity threshold: a first name alone reaches it, so `Amara Kig` made all the
 * Amaras candidates. GiST serves `<%` as well, so the GIN index of 0011 goes; a signature of 256 bytes
 * keeps the inner pages of short names from saturating (fewer pages read per search than the default 12).
 */
export const searchKnnMigration: Migration = {
  name: '0012_claims_search_knn',
  sql: `
      DROP INDEX claims_claimant_name_trgm_idx;
      CREATE INDEX claims_claimant_name_trgm_gist_idx ON claims USING gist ((lower(translate(claimant_name, 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÑñÇçÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOOooooooUUUUuuuuNnCcYyy'))) gist_trgm_ops (siglen = 256));
    `,
};
