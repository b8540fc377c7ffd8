import type { Migration } from '@platform/db';

/**
 * The sweep reads only the claims whose deadlines can still break.
 *
 * A met acknowledgement or first contact was a NOT EXISTS over deliveries or status updates, so every open
 * claim past its due moment (all of them, two days after receipt) stayed in the sweep's index range for
 * good: each pass read all open claims and probed their updates (3.9 s and 2.5 GB read per deadline at
 * 1 M claims, stalling every other query of the service). The moment each was met is now a column of the
 * claim, set by triggers where it happens (the first delivery handed over or served, the first update not
 * written by the system), and the sweep's partial indexes hold only claims still unmet.
 */
export const deadlinesMetMigration: Migration = {
  name: '0014_claims_deadlines_met',
  sql: `
      ALTER TABLE claims ADD COLUMN acknowledgement_delivered_at timestamptz, ADD COLUMN first_contact_made_at timestamptz;
      UPDATE claims SET acknowledgement_delivered_at = met.at
        FROM (SELECT claim_id, min(coalesce(completed_at, created_at)) AS at FROM deliveries
              WHERE status IN ('sent', 'logged', 'delivered') GROUP BY claim_id) AS met
        WHERE claims.id = met.claim_id;
      UPDATE claims SET first_contact_made_at = met.at
        FROM (SELECT claim_id, min(created_at) AS at FROM status_updates WHERE created_by NOT LIKE 'system:%' GROUP BY claim_id) AS met
        WHERE claims.id = met.claim_id;

      CREATE FUNCTION note_acknowledgement_delivered() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE claims SET acknowledgement_delivered_at = coalesce(NEW.completed_at, clock_timestamp())
          WHERE id = NEW.claim_id AND acknowledgement_delivered_at IS NULL;
        RETURN NULL;
      END $$;
      CREATE TRIGGER deliveries_acknowledgement_delivered AFTER INSERT OR UPDATE OF status ON deliveries
        FOR EACH ROW WHEN (NEW.status IN ('sent', 'logged', 'delivered')) EXECUTE FUNCTION note_acknowledgement_delivered();

      CREATE FUNCTION note_first_contact_made() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE claims SET first_contact_made_at = NEW.created_at WHERE id = NEW.claim_id AND first_contact_made_at IS NULL;
        RETURN NULL;
      END $$;
      CREATE TRIGGER status_updates_first_contact_made AFTER INSERT ON status_updates
        FOR EACH ROW WHEN (NEW.created_by NOT LIKE 'system:%') EXECUTE FUNCTION note_first_contact_made();

      DROP INDEX claims_acknowledge_by_idx;
      DROP INDEX claims_first_contact_due_idx;
      CREATE INDEX claims_acknowledgement_unmet_idx ON claims (acknowledge_by) WHERE stage <> 'closed' AND acknowledgement_delivered_at IS NULL;
      CREATE INDEX claims_first_contact_unmet_idx ON claims (first_contact_due) WHERE stage <> 'closed' AND first_contact_made_at IS NULL;
    `,
};
