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
