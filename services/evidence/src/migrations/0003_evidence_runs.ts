import type { Migration } from '@platform/db';

/**
 * A run tests one control version over one period (unique together). Its status moves
 * open → in_review → approved | rejected; decisions are append-only and at most one per run.
 */
export const runsMigration: Migration = {
  name: '0003_evidence_runs',
  sql: `
      CREATE TABLE evidence_runs (
        run_id uuid PRIMARY KEY,
        control_version_id uuid NOT NULL REFERENCES evidence_control_versions (control_version_id),
        period_start date NOT NULL,
        period_end date NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'in_review', 'approved', 'rejected')),
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        submitted_by text,
        submitted_at timestamptz,
        CHECK (period_start <= period_end),
        UNIQUE (control_version_id, period_start, period_end)
      );
      CREATE TABLE evidence_run_decisions (
        decision_id uuid PRIMARY KEY,
        run_id uuid NOT NULL UNIQUE REFERENCES evidence_runs (run_id),
        decision text NOT NULL CHECK (decision IN ('approved', 'rejected')),
        rationale text NOT NULL,
        decided_by text NOT NULL,
        decided_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );

    CREATE OR REPLACE FUNCTION refuse_change_evidence_run_decisions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'evidence_run_decisions is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER evidence_run_decisions_no_update_delete BEFORE UPDATE OR DELETE ON evidence_run_decisions
      FOR EACH ROW EXECUTE FUNCTION refuse_change_evidence_run_decisions();
    CREATE TRIGGER evidence_run_decisions_no_truncate BEFORE TRUNCATE ON evidence_run_decisions
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_evidence_run_decisions();`,
};
