import type { Migration } from '@platform/db';

/**
 * Reserves and payments. Money is `numeric(18,2)` with its ISO 4217 currency beside it; no float column.
 *
 * - `reserve_changes`: every change of a category's reserve is a row (who, when, why, open reserve from → to),
 *   never an update: a trigger refuses UPDATE and DELETE. `reserve` is the category's reserve after the change
 *   (what is paid and awaiting approval plus the open reserve then); the newest row per category is current.
 * - `payments`: a request and its one decision or void; `status` moves awaiting_approval → approved | rejected,
 *   and approved or awaiting_approval → voided.
 */
export const financialsMigration: Migration = {
  name: '0019_claims_financials',
  sql: `
      CREATE TABLE reserve_changes (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        cost_category text NOT NULL CHECK (cost_category IN ('indemnity', 'expense')),
        currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        previous_open numeric(18,2) NOT NULL CHECK (previous_open >= 0),
        open numeric(18,2) NOT NULL CHECK (open >= 0),
        reserve numeric(18,2) NOT NULL CHECK (reserve >= open),
        cause text NOT NULL CHECK (cause IN ('set', 'closing')),
        reason text NOT NULL,
        actor text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        seq bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE INDEX reserve_changes_claim_idx ON reserve_changes (claim_id, cost_category, seq DESC);

      CREATE OR REPLACE FUNCTION reserve_changes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'reserve_changes is append-only';
      END $$;
      CREATE TRIGGER reserve_changes_no_update BEFORE UPDATE OR DELETE ON reserve_changes
        FOR EACH ROW EXECUTE FUNCTION reserve_changes_append_only();

      CREATE TABLE payments (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        cost_category text NOT NULL CHECK (cost_category IN ('indemnity', 'expense')),
        amount numeric(18,2) NOT NULL CHECK (amount > 0),
        currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        payee_name text NOT NULL,
        payee_kind text NOT NULL CHECK (payee_kind IN ('claimant', 'vendor')),
        method text NOT NULL CHECK (method IN ('eft', 'check')),
        memo text NOT NULL,
        invoice_attachment_id uuid REFERENCES attachments (id),
        status text NOT NULL CHECK (status IN ('awaiting_approval', 'approved', 'rejected', 'voided')),
        authority_limit numeric(18,2) NOT NULL,
        requested_by text NOT NULL,
        requested_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        decided_by text,
        decided_at timestamptz,
        decision_rationale text,
        voided_by text,
        voided_at timestamptz,
        void_reason text,
        seq bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE INDEX payments_claim_idx ON payments (claim_id, cost_category, status);
      CREATE INDEX payments_awaiting_idx ON payments (requested_at) WHERE status = 'awaiting_approval';
    `,
};
