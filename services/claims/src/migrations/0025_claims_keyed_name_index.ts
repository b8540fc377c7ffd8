import type { Migration } from '@platform/db';

/**
 * The claimant's name, searched fuzzily without being held in plain text (it is encrypted per claimant):
 * supersedes 0013's `claimant_names` and the folded-name btree of the claims, and their triggers.
 *
 * - `claimant_name_index`: per claim, the keyed tokens of its name's trigrams (features/claims-list
 *   claimant-name-index.ts computes them, so the key never reaches the database), deleted with the claim
 *   or by `forgetClaimantName`;
 * - `claimant_name_sets`: each distinct set of tokens once, kept by a trigger on the index, with a GIN
 *   index on its tokens; a search ranks the sets (names repeat, so they are fewer than the claims) and
 *   reads the claims of the best ones from the btree of the index on `tokens`.
 *
 * Claims filed before this migration have no row: the service indexes them at start (indexUnindexedNames).
 */
export const keyedNameIndexMigration: Migration = {
  name: '0025_claims_keyed_name_index',
  sql: `
      DROP TRIGGER claims_add_claimant_names ON claims;
      DROP TRIGGER claims_add_renamed_claimant_name ON claims;
      DROP FUNCTION add_inserted_claimant_names();
      DROP FUNCTION add_renamed_claimant_name();
      DROP TABLE claimant_names;
      DROP INDEX claims_claimant_name_created_idx;

      CREATE TABLE claimant_name_index (
        claim_id uuid PRIMARY KEY REFERENCES claims (id) ON DELETE CASCADE,
        tokens smallint[] NOT NULL
      );
      CREATE INDEX claimant_name_index_tokens_idx ON claimant_name_index (tokens);

      CREATE TABLE claimant_name_sets (tokens smallint[] PRIMARY KEY);
      CREATE INDEX claimant_name_sets_tokens_gin_idx ON claimant_name_sets USING gin (tokens);

      CREATE FUNCTION add_claimant_name_set() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO claimant_name_sets (tokens) VALUES (NEW.tokens) ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      CREATE TRIGGER claimant_name_index_add_set AFTER INSERT OR UPDATE OF tokens ON claimant_name_index
        FOR EACH ROW EXECUTE FUNCTION add_claimant_name_set();
    `,
};
