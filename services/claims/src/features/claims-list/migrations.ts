import type { Migration } from '@platform/db';

/**
 * Search that the indexes can serve (`q` on the claims list), replacing 0007's `search_text`.
 *
 * One trigram index over everything made every claim a fuzzy candidate: the words all claims share (the
 * `clm` prefix, the year, the email domain) lifted each row over the similarity threshold, and the
 * planner scanned the table. Now each part is matched the way people type it, each by its own index:
 *
 * - the claimant's name, fuzzily (typos, partial words, accents or none): pg_trgm word similarity on the
 *   name lower-cased and with Latin accents folded (`translate`: immutable, so indexable, unlike `unaccent`;
 *   the claims list's CLAIMANT_NAME is this expression exactly, and normaliseSearch folds the search alike);
 * - claim number, policy number and email by prefix (the whole value is an exact match), lower-cased;
 * - the phone by the end of its digits (`reverse` of the digits, prefix-indexed), so a number written with
 *   or without its country code and in any punctuation is found.
 */
export const searchIndexesMigration: Migration = {
  name: '0011_claims_search_indexes',
  sql: `
      ALTER TABLE claims DROP COLUMN search_text;

      CREATE INDEX claims_claimant_name_trgm_idx ON claims USING gin ((lower(translate(claimant_name, 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÑñÇçÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOOooooooUUUUuuuuNnCcYyy'))) gin_trgm_ops);
      CREATE INDEX claims_claim_number_prefix_idx ON claims (lower(claim_number) text_pattern_ops);
      CREATE INDEX claims_policy_number_prefix_idx ON claims (lower(policy_number) text_pattern_ops);
      CREATE INDEX claims_claimant_email_prefix_idx ON claims (lower(claimant_email) text_pattern_ops);
      CREATE INDEX claims_claimant_phone_suffix_idx ON claims (reverse(regexp_replace(claimant_phone, '[^0-9]', '', 'g')) text_pattern_ops);
    `,
};

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

/**
 * The name part of a search served from distinct names: `claimant_names` holds each name once, folded as
 * the claims list compares it (CLAIMANT_NAME), with a small GiST trigram index; the claims of a name are
 * read newest first from a btree on (folded name, created_at, id). Names repeat, so the trigram index
 * searched is a fraction of 0012's one entry per claim (whose scan read most of its ~1,000 pages for a
 * common first name), and a bulk insert no longer maintains a trigram entry per claim.
 *
 * Triggers keep the table complete: after an INSERT statement the names of its rows (a transition table:
 * one statement for a bulk insert), after an UPDATE that changes a name the new one. A name no claim
 * holds any more may stay (claims are not deleted today): it matches no claim, so it is never wrong.
 */
export const claimantNamesMigration: Migration = {
  name: '0013_claims_claimant_names',
  sql: `
      CREATE TABLE claimant_names (name text PRIMARY KEY);
      INSERT INTO claimant_names (name)
        SELECT DISTINCT lower(translate(claimant_name, 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÑñÇçÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOOooooooUUUUuuuuNnCcYyy')) FROM claims;
      CREATE INDEX claimant_names_trgm_idx ON claimant_names USING gist (name gist_trgm_ops (siglen = 64));

      CREATE INDEX claims_claimant_name_created_idx ON claims ((lower(translate(claimant_name, 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÑñÇçÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOOooooooUUUUuuuuNnCcYyy'))), created_at DESC, id DESC);
      DROP INDEX claims_claimant_name_trgm_gist_idx;

      CREATE FUNCTION add_inserted_claimant_names() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO claimant_names (name)
          SELECT DISTINCT lower(translate(claimant_name, 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÑñÇçÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOOooooooUUUUuuuuNnCcYyy')) FROM inserted_claims
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      CREATE TRIGGER claims_add_claimant_names AFTER INSERT ON claims
        REFERENCING NEW TABLE AS inserted_claims FOR EACH STATEMENT EXECUTE FUNCTION add_inserted_claimant_names();

      CREATE FUNCTION add_renamed_claimant_name() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO claimant_names (name)
          VALUES (lower(translate(NEW.claimant_name, 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÑñÇçÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOOooooooUUUUuuuuNnCcYyy')))
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      CREATE TRIGGER claims_add_renamed_claimant_name AFTER UPDATE OF claimant_name ON claims
        FOR EACH ROW WHEN (OLD.claimant_name IS DISTINCT FROM NEW.claimant_name) EXECUTE FUNCTION add_renamed_claimant_name();
    `,
};
