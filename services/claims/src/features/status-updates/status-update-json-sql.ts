/**
 * A status_updates row (`alias`) as the thirteen fields of a StatusUpdate, built as JSON by PostgreSQL:
 * the same values the store's reads give (the date as `YYYY-MM-DD`, the score as a number, the contact as
 * its `phone` and `email` only, whatever an older row holds).
 */
export const statusUpdateJsonSql = (alias: string) => `json_build_object(
  'claim_id', ${alias}.claim_id, 'channel', ${alias}.channel, 'stage', ${alias}.stage, 'what_happened', ${alias}.what_happened,
  'what_happens_next', ${alias}.what_happens_next, 'what_we_need_from_you', ${alias}.what_we_need_from_you,
  'expected_next_update_by', to_char(${alias}.expected_next_update_by, 'YYYY-MM-DD'), 'cta', ${alias}.cta, 'contact', CASE WHEN jsonb_typeof(${alias}.contact) = 'object'
    THEN jsonb_build_object('phone', ${alias}.contact->'phone', 'email', ${alias}.contact->'email') END,
  'portal_url', ${alias}.portal_url, 'language', ${alias}.language, 'adequacy_score', ${alias}.adequacy_score,
  'adequacy_missing', ${alias}.adequacy_missing)`;
