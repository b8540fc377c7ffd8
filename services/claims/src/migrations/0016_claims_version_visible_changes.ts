import type { Migration } from '@platform/db';

/**
 * The claim's `version` (its ETag) changes when what a reader of the claim sees changes, not when the
 * service's bookkeeping does: the acknowledgement's delivery and the first contact set their moments on
 * the claim from triggers (0014), and a new access link replaces the token's hash. Each bumped the version,
 * so an adjuster who read a claim before its acknowledgement went out had a 409 for taking it, with nothing
 * changed that the adjuster could see. Those columns are left out of the comparison; any other change bumps
 * it as before.
 */
export const claimVersionVisibleChangesMigration: Migration = {
  name: '0016_claims_version_visible_changes',
  sql: `
      CREATE OR REPLACE FUNCTION bump_claim_version() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        seen_before claims := OLD;
        seen_after claims := NEW;
      BEGIN
        seen_before.access_token_hash := NULL;
        seen_after.access_token_hash := NULL;
        seen_before.acknowledgement_delivered_at := NULL;
        seen_after.acknowledgement_delivered_at := NULL;
        seen_before.first_contact_made_at := NULL;
        seen_after.first_contact_made_at := NULL;
        IF seen_after IS DISTINCT FROM seen_before THEN
          NEW.version := OLD.version + 1;
        END IF;
        RETURN NEW;
      END $$;
    `,
};
