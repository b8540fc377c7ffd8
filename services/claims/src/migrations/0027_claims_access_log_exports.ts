import type { Migration } from '@platform/db';

/**
 * Who read what, and subject-access exports.
 *
 * - `claim_access_log`: one row per read of a claim's personal data by staff (the claim file, an attachment,
 *   an adjuster kit, an export): who, when, what kind, the purpose they gave (`Access-Purpose`, ≤ 200
 *   characters, optional) and whether the claim was sensitive (injury or a fraud gate) at the time.
 *   Append-only: the database refuses UPDATE, DELETE and TRUNCATE, as for `claim_audit`.
 * - `claimant_exports`: the export jobs the background builder drains (`queued` → `building` → `ready` |
 *   `failed`), leased with `lease_until` so a build a dead process left is taken up again; `claim_ids` are the
 *   claims it holds, fixed when its build starts. The archive is stored content-addressed (`archive_sha256`);
 *   a claimant's own request (`requested_by = 'claimant'`) names the claim it came from and keeps only the hash
 *   of its one-time download token and when that expires. `claimant_id` is a `claimants` id (no foreign key:
 *   erasing a claimant removes their exports' archives, the rows stay as a record). At most one open
 *   (queued or building) claimant request per claimant, kept by a unique partial index.
 * - `deliveries.kind` gains `export_link` (the one-time download link of a claimant's export), which names
 *   its export.
 */
export const accessLogExportsMigration: Migration = {
  name: '0027_claims_access_log_exports',
  sql: `
      CREATE TABLE claim_access_log (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        actor text NOT NULL CHECK (char_length(actor) >= 1),
        kind text NOT NULL CHECK (kind IN ('claim_file', 'attachment', 'adjuster_kit', 'export')),
        purpose text CHECK (char_length(purpose) BETWEEN 1 AND 200),
        sensitive boolean NOT NULL,
        accessed_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX claim_access_log_claim_idx ON claim_access_log (claim_id, accessed_at DESC, id DESC);

      CREATE OR REPLACE FUNCTION refuse_change_claim_access_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'claim_access_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$;
      CREATE TRIGGER claim_access_log_no_update_delete BEFORE UPDATE OR DELETE ON claim_access_log
        FOR EACH ROW EXECUTE FUNCTION refuse_change_claim_access_log();
      CREATE TRIGGER claim_access_log_no_truncate BEFORE TRUNCATE ON claim_access_log
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_claim_access_log();

      CREATE TABLE claimant_exports (
        id uuid PRIMARY KEY,
        claimant_id uuid NOT NULL,
        requested_by text NOT NULL CHECK (char_length(requested_by) >= 1),
        via_claim_id uuid REFERENCES claims (id),
        include_internal_notes boolean NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'building', 'ready', 'failed')),
        claim_ids jsonb,
        progress_done integer NOT NULL DEFAULT 0 CHECK (progress_done >= 0),
        progress_total integer CHECK (progress_total >= 0),
        attempts integer NOT NULL DEFAULT 0,
        lease_until timestamptz,
        archive_sha256 text,
        archive_size bigint,
        failure text,
        download_token_hash text,
        download_expires_at timestamptz,
        downloaded_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_at timestamptz,
        CHECK ((requested_by = 'claimant') = (via_claim_id IS NOT NULL)),
        CHECK ((status = 'ready') = (archive_sha256 IS NOT NULL))
      );
      CREATE INDEX claimant_exports_claimant_idx ON claimant_exports (claimant_id, created_at DESC);
      CREATE INDEX claimant_exports_due_idx ON claimant_exports (created_at) WHERE status IN ('queued', 'building');
      CREATE UNIQUE INDEX claimant_exports_one_open_request ON claimant_exports (claimant_id)
        WHERE requested_by = 'claimant' AND status IN ('queued', 'building');

      ALTER TABLE deliveries DROP CONSTRAINT deliveries_kind_check;
      ALTER TABLE deliveries ADD CONSTRAINT deliveries_kind_check CHECK (kind IN ('status_update', 'access_link', 'export_link'));
      ALTER TABLE deliveries ADD COLUMN export_id uuid REFERENCES claimant_exports (id);
      ALTER TABLE deliveries ADD CONSTRAINT deliveries_export_of_kind CHECK ((kind = 'export_link') = (export_id IS NOT NULL));
    `,
};
