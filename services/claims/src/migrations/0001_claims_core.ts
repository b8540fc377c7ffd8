import type { Migration } from '@platform/db';

/**
 * The claim file. Plain SQL that runs on PostgreSQL 15 and PGlite: app-generated UUIDs, `timestamptz`,
 * money as `numeric` with its currency beside it.
 *
 * - `claims`: one row per claim; claimant contact details as columns (they are personal data and never
 *   leave the service in events); `required_documents` is the checklist `[{ type, received }]`;
 *   service-level dates: `acknowledge_by` (and `acknowledged_at`), `first_contact_due`,
 *   `next_update_due` (the moment the last promised `expected_next_update_by` date has passed).
 * - `claim_number_counters`: the last number handed out per year (CLM-YYYY-NNNNNN), bumped with an
 *   UPSERT … RETURNING inside the intake transaction, so numbers are ordered per year.
 * - `status_updates`: the thirteen StatusUpdate fields plus `update_id`, `created_at`, `created_by`.
 * - `attachments`: content-addressed files (`sha256`), one row per distinct content per claim.
 * - `idempotency_keys`: intake retries; the key is stored only as its SHA-256 and the stored response
 *   is sealed with a key derived from the Idempotency-Key itself (it holds the claimant's access token).
 * - `claim_audit`: append-only internal timeline: who did what to which claim, when and why.
 */
export const claimsCoreMigration: Migration = {
  name: '0001_claims_core',
  sql: `
      CREATE TABLE claims (
        id uuid PRIMARY KEY,
        claim_number text NOT NULL UNIQUE,
        policy_number text NOT NULL,
        claimant_name text NOT NULL,
        claimant_email text,
        claimant_phone text,
        loss_date date NOT NULL,
        loss_type text NOT NULL CHECK (loss_type IN ('auto_collision', 'auto_glass', 'auto_theft', 'property_water', 'property_fire', 'property_theft', 'property_weather', 'liability', 'injury', 'other')),
        loss_description text NOT NULL,
        loss_location jsonb,
        injuries boolean,
        police_report_number text,
        estimated_amount numeric CHECK (estimated_amount >= 0),
        estimated_currency text,
        preferred_channel text NOT NULL CHECK (preferred_channel IN ('email', 'sms', 'portal')),
        language text NOT NULL,
        stage text NOT NULL CHECK (stage IN ('intake', 'triage', 'assigned', 'waiting_on_customer', 'inspection', 'estimate', 'settlement', 'closed')),
        queue text,
        access_token_hash text NOT NULL,
        required_documents jsonb NOT NULL DEFAULT '[]'::jsonb,
        received_at timestamptz NOT NULL,
        acknowledge_by timestamptz NOT NULL,
        acknowledged_at timestamptz,
        first_contact_due timestamptz NOT NULL,
        next_update_due timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CHECK ((estimated_amount IS NULL) = (estimated_currency IS NULL))
      );
      CREATE INDEX claims_created_idx ON claims (created_at DESC, id DESC);
      CREATE INDEX claims_stage_idx ON claims (stage, created_at DESC);
      CREATE INDEX claims_queue_idx ON claims (queue, created_at DESC);
      CREATE INDEX claims_next_update_due_idx ON claims (next_update_due) WHERE stage <> 'closed';

      CREATE TABLE claim_number_counters (
        year integer PRIMARY KEY,
        last_value integer NOT NULL
      );

      CREATE TABLE status_updates (
        update_id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        channel text NOT NULL CHECK (channel IN ('email', 'sms', 'portal')),
        stage text NOT NULL CHECK (stage IN ('intake', 'triage', 'assigned', 'waiting_on_customer', 'inspection', 'estimate', 'settlement', 'closed')),
        what_happened text NOT NULL,
        what_happens_next text NOT NULL,
        what_we_need_from_you text,
        expected_next_update_by date,
        cta jsonb,
        contact jsonb,
        portal_url text,
        language text,
        adequacy_score numeric(3, 2) NOT NULL CHECK (adequacy_score >= 0 AND adequacy_score <= 1),
        adequacy_missing jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        created_by text NOT NULL
      );
      CREATE INDEX status_updates_claim_idx ON status_updates (claim_id, created_at DESC);

      CREATE TABLE attachments (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        sha256 text NOT NULL,
        size_bytes bigint NOT NULL,
        content_type text NOT NULL,
        filename text NOT NULL,
        document_type text NOT NULL,
        description text,
        received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (claim_id, sha256)
      );
      CREATE INDEX attachments_sha256_idx ON attachments (sha256);

      CREATE TABLE idempotency_keys (
        operation text NOT NULL,
        key_hash text NOT NULL,
        request_digest text NOT NULL,
        sealed_response text,
        claim_id uuid REFERENCES claims (id),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (operation, key_hash)
      );
      CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);

      CREATE TABLE claim_audit (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        action text NOT NULL,
        actor text NOT NULL,
        reason text,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX claim_audit_claim_idx ON claim_audit (claim_id, occurred_at);

    CREATE OR REPLACE FUNCTION refuse_change_claim_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'claim_audit is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER claim_audit_no_update_delete BEFORE UPDATE OR DELETE ON claim_audit
      FOR EACH ROW EXECUTE FUNCTION refuse_change_claim_audit();
    CREATE TRIGGER claim_audit_no_truncate BEFORE TRUNCATE ON claim_audit
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_claim_audit();
    `,
};
