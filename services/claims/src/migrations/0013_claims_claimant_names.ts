import type { Migration } from '@platform/db';

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
