import type { Migration } from '@platform/db';

/**
 * Contacts an adjuster made with the claimant (a call, an email, a visit), never edited or deleted. The
 * first one meets the first-contact deadline: the trigger marks the claim's `first_contact_made_at` (as
 * migration 0014's trigger does for the first update a person sends), at the earliest moment recorded.
 */
export const contactsMigration: Migration = {
  name: '0022_claims_contacts',
  sql: `
      CREATE TABLE claim_contacts (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        channel text NOT NULL CHECK (channel IN ('call', 'email', 'visit')),
        occurred_at timestamptz NOT NULL,
        note text CHECK (char_length(note) BETWEEN 1 AND 2000),
        recorded_by text NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX claim_contacts_claim_idx ON claim_contacts (claim_id, occurred_at DESC, id DESC);

      CREATE FUNCTION claim_contacts_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'claim_contacts is append-only';
      END $$;
      CREATE TRIGGER claim_contacts_no_update BEFORE UPDATE OR DELETE ON claim_contacts
        FOR EACH ROW EXECUTE FUNCTION claim_contacts_append_only();

      CREATE FUNCTION note_contact_made() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE claims SET first_contact_made_at = NEW.occurred_at
          WHERE id = NEW.claim_id AND (first_contact_made_at IS NULL OR first_contact_made_at > NEW.occurred_at);
        RETURN NULL;
      END $$;
      CREATE TRIGGER claim_contacts_first_contact_made AFTER INSERT ON claim_contacts
        FOR EACH ROW EXECUTE FUNCTION note_contact_made();
    `,
};
