import type { Migration } from '@platform/db';

/**
 * Witness cosignatures of checkpoints (c2sp.org/tlog-cosignature signature lines, checked against a
 * configured witness key before they are stored) and the refusals witnesses report, with their evidence.
 * Append-only like the log.
 */
export const auditWitnessMigration: Migration = {
  name: '0010_audit_witness',
  sql: `
      CREATE TABLE audit_cosignatures (
        seq bigint NOT NULL CHECK (seq >= 1),
        witness text NOT NULL,
        cosigned_at bigint NOT NULL,
        signature_line text NOT NULL,
        received_at text NOT NULL,
        PRIMARY KEY (seq, witness)
      );
      CREATE TABLE audit_witness_refusals (
        id bigserial PRIMARY KEY,
        witness text NOT NULL,
        reason text NOT NULL CHECK (reason IN ('truncated', 'forked', 'inconsistent')),
        cosigned_checkpoint text NOT NULL,
        offered_checkpoint text NOT NULL,
        offered_size bigint NOT NULL,
        proof jsonb,
        refused_at text NOT NULL,
        received_at text NOT NULL
      );

    CREATE OR REPLACE FUNCTION refuse_change_audit_witness() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER audit_cosignatures_no_update_delete BEFORE UPDATE OR DELETE ON audit_cosignatures
      FOR EACH ROW EXECUTE FUNCTION refuse_change_audit_witness();
    CREATE TRIGGER audit_cosignatures_no_truncate BEFORE TRUNCATE ON audit_cosignatures
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_audit_witness();
    CREATE TRIGGER audit_witness_refusals_no_update_delete BEFORE UPDATE OR DELETE ON audit_witness_refusals
      FOR EACH ROW EXECUTE FUNCTION refuse_change_audit_witness();
    CREATE TRIGGER audit_witness_refusals_no_truncate BEFORE TRUNCATE ON audit_witness_refusals
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_audit_witness();`,
};
