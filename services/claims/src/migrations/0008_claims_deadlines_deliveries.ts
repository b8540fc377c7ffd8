import type { Migration } from '@platform/db';

/**
 * Deadlines that hold and deliveries you can see.
 *
 * - `claims.time_zone`: the claim's IANA time zone, when the claimant gave one; promised dates count in it.
 * - `deadline_breaches` generalises `overdue_announcements` (its rows are carried over as `next_update`
 *   breaches and the old table dropped): one row per broken deadline of a claim and due moment, so each is
 *   announced once; a new due moment (a newer promise) can be announced again when it too passes.
 * - Open claims without a promised next update (status updates used to clear it) get one, five days out,
 *   the default cadence; from now on the service always sets one.
 * - `deliveries.provider_message_id`: the id the SMTP server or SMS provider gave the message.
 * - `triage_policies.published_by`: who published a version (the default one: the migration); the
 *   content of a published version can never change, only which version is active.
 */
export const deadlinesDeliveriesMigration: Migration = {
  name: '0008_claims_deadlines_deliveries',
  sql: `
      ALTER TABLE claims ADD COLUMN time_zone text;

      CREATE TABLE deadline_breaches (
        claim_id uuid NOT NULL REFERENCES claims (id),
        deadline text NOT NULL CHECK (deadline IN ('acknowledgement', 'first_contact', 'next_update')),
        due_at timestamptz NOT NULL,
        event_id uuid NOT NULL,
        announced_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (claim_id, deadline, due_at)
      );
      INSERT INTO deadline_breaches (claim_id, deadline, due_at, event_id, announced_at)
        SELECT claim_id, 'next_update', due_at, event_id, announced_at FROM overdue_announcements;
      DROP TABLE overdue_announcements;

      UPDATE claims SET next_update_due = date_trunc('day', clock_timestamp() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '6 days'
        WHERE stage <> 'closed' AND next_update_due IS NULL;
      CREATE INDEX claims_first_contact_due_idx ON claims (first_contact_due) WHERE stage <> 'closed';
      CREATE INDEX claims_acknowledge_by_idx ON claims (acknowledge_by) WHERE stage <> 'closed';

      ALTER TABLE deliveries ADD COLUMN provider_message_id text;
      CREATE INDEX deliveries_claim_idx ON deliveries (claim_id, created_at);
      CREATE INDEX deliveries_failed_idx ON deliveries (claim_id) WHERE status = 'failed';

      ALTER TABLE triage_policies ADD COLUMN published_by text NOT NULL DEFAULT 'system:migration';
      ALTER TABLE triage_policies ALTER COLUMN published_by DROP DEFAULT;

    CREATE OR REPLACE FUNCTION refuse_change_triage_policies() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND (NEW.version, NEW.description, NEW.parameters, NEW.score_bands, NEW.rules, NEW.created_at, NEW.published_by)
          IS NOT DISTINCT FROM (OLD.version, OLD.description, OLD.parameters, OLD.score_bands, OLD.rules, OLD.created_at, OLD.published_by) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'a published triage policy never changes (only which version is active): % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER triage_policies_published_unchanged BEFORE UPDATE OR DELETE ON triage_policies
      FOR EACH ROW EXECUTE FUNCTION refuse_change_triage_policies();
    CREATE TRIGGER triage_policies_no_truncate BEFORE TRUNCATE ON triage_policies
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_triage_policies();
    `,
};
