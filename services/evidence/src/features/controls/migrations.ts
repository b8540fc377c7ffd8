import { appendOnlySql, type Migration } from '@platform/db';

/**
 * A control is its identity (id and unique key); its definition lives in immutable, numbered versions.
 * Both tables are append-only: a change of definition is a new version, never an edit.
 */
export const controlsMigration: Migration = {
  name: '0002_evidence_controls',
  async up(db) {
    await db.raw(`
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
      ${appendOnlySql('evidence_controls')}
      ${appendOnlySql('evidence_control_versions')}`);
  },
};
