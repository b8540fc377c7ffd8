import type { Migration } from '@platform/db';

/**
 * Retention, legal holds and erasure of a claimant's personal data.
 *
 * - `retention_policies`: the versions of the retention policy (1, 2, …): per closing reason, how many days
 *   after closing a claim's personal data is kept; who published each version and why. A published version
 *   never changes (the database refuses it); the highest version is in force. Version 1 is the default:
 *   paid and denied 2555 days (7 years, the usual limitation and insurance-record period), withdrawn 1095
 *   (3 years), duplicate 365 (the claim it duplicates keeps the record).
 * - `legal_holds`: a hold on a claim stops its claimant's erasure until a person releases it (who and why).
 * - `claimant_erasures`: one per erased claimant: who, when, the legal basis, the reason and the claims;
 *   `files_destroyed_at` stays null until the files are gone from storage (retried after commit).
 * - `claims.claimant_erased_at`: when the claim's claimant was erased (its personal fields are a tombstone).
 * - Adjuster kits stay append-only, except that the kits of a claim whose claimant was erased can be
 *   deleted: their snapshots hold the claimant's data, their hashes stay in the audit log. The runtime role
 *   holds no DELETE on an append-only table, so it deletes them through `delete_erased_adjuster_kits`, which
 *   runs as the owner and deletes nothing of a claim whose claimant is not erased.
 */
export const retentionErasureMigration: Migration = {
  name: '0026_claims_retention_erasure',
  sql: `
      CREATE TABLE retention_policies (
        version integer PRIMARY KEY CHECK (version >= 1),
        paid_days integer NOT NULL CHECK (paid_days >= 0),
        denied_days integer NOT NULL CHECK (denied_days >= 0),
        withdrawn_days integer NOT NULL CHECK (withdrawn_days >= 0),
        duplicate_days integer NOT NULL CHECK (duplicate_days >= 0),
        reason text NOT NULL CHECK (char_length(reason) >= 1),
        published_by text NOT NULL,
        published_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      INSERT INTO retention_policies (version, paid_days, denied_days, withdrawn_days, duplicate_days, reason, published_by)
        VALUES (1, 2555, 2555, 1095, 365, 'Default retention: paid and denied 7 years, withdrawn 3 years, duplicate 1 year', 'system:migration');

    CREATE OR REPLACE FUNCTION refuse_change_retention_policies() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'a published retention policy never changes (publish a new version): % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER retention_policies_published_unchanged BEFORE UPDATE OR DELETE ON retention_policies
      FOR EACH ROW EXECUTE FUNCTION refuse_change_retention_policies();
    CREATE TRIGGER retention_policies_no_truncate BEFORE TRUNCATE ON retention_policies
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_retention_policies();

      CREATE TABLE legal_holds (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        reason text NOT NULL CHECK (char_length(reason) >= 1),
        placed_by text NOT NULL,
        placed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        released_by text,
        release_reason text,
        released_at timestamptz,
        CHECK ((released_at IS NULL) = (released_by IS NULL) AND (released_at IS NULL) = (release_reason IS NULL))
      );
      CREATE INDEX legal_holds_claim_idx ON legal_holds (claim_id, placed_at);
      CREATE INDEX legal_holds_active_idx ON legal_holds (claim_id) WHERE released_at IS NULL;

      CREATE TABLE claimant_erasures (
        id uuid PRIMARY KEY,
        claimant_id uuid NOT NULL UNIQUE,
        claim_ids jsonb NOT NULL,
        legal_basis text NOT NULL,
        reason text NOT NULL CHECK (char_length(reason) >= 1),
        erased_by text NOT NULL,
        erased_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        files jsonb NOT NULL DEFAULT '[]'::jsonb,
        files_destroyed_at timestamptz
      );
      CREATE INDEX claimant_erasures_files_pending_idx ON claimant_erasures (erased_at) WHERE files_destroyed_at IS NULL;

      ALTER TABLE claims ADD COLUMN claimant_erased_at timestamptz;

    CREATE OR REPLACE FUNCTION refuse_change_adjuster_kits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM claims WHERE id = OLD.claim_id AND claimant_erased_at IS NOT NULL) THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'adjuster_kits is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;

    CREATE FUNCTION delete_erased_adjuster_kits(claim_ids uuid[]) RETURNS integer
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
    DECLARE deleted integer;
    BEGIN
      DELETE FROM adjuster_kits k USING claims c
        WHERE k.claim_id = c.id AND c.id = ANY (claim_ids) AND c.claimant_erased_at IS NOT NULL;
      GET DIAGNOSTICS deleted = ROW_COUNT;
      RETURN deleted;
    END $$;
    `,
};
