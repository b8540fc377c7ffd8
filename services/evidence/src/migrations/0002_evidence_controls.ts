import type { Migration } from '@platform/db';

/**
 * A control is its identity (id and unique key); its definition lives in immutable, numbered versions.
 * Both tables are append-only: a change of definition is a new version, never an edit.
 */
export const controlsMigration: Migration = {
  name: '0002_evidence_controls',
  sql: `
      CREATE TABLE evidence_controls (
        control_id uuid PRIMARY KEY,
        key text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE UNIQUE INDEX evidence_controls_key_idx ON evidence_controls (lower(key));
      CREATE TABLE evidence_control_versions (
        control_version_id uuid PRIMARY KEY,
        control_id uuid NOT NULL REFERENCES evidence_controls (control_id),
        version integer NOT NULL CHECK (version >= 1),
        title text NOT NULL,
        description text,
        owner text,
        frequency text CHECK (frequency IN ('continuous', 'daily', 'weekly', 'monthly', 'quarterly', 'annual', 'ad_hoc')),
        test_procedure text,
        evidence_requirements jsonb NOT NULL DEFAULT '[]',
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (control_id, version)
      );

    CREATE OR REPLACE FUNCTION refuse_change_evidence_controls() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'evidence_controls is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER evidence_controls_no_update_delete BEFORE UPDATE OR DELETE ON evidence_controls
      FOR EACH ROW EXECUTE FUNCTION refuse_change_evidence_controls();
    CREATE TRIGGER evidence_controls_no_truncate BEFORE TRUNCATE ON evidence_controls
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_evidence_controls();

    CREATE OR REPLACE FUNCTION refuse_change_evidence_control_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'evidence_control_versions is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER evidence_control_versions_no_update_delete BEFORE UPDATE OR DELETE ON evidence_control_versions
      FOR EACH ROW EXECUTE FUNCTION refuse_change_evidence_control_versions();
    CREATE TRIGGER evidence_control_versions_no_truncate BEFORE TRUNCATE ON evidence_control_versions
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_evidence_control_versions();`,
};
