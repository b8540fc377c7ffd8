import type { Migration } from '@platform/db';

/**
 * Claimant self-service.
 * - `rate_limit_windows`: hits per bucket (`access-links:address:<ip>`, `access-links:claim:<id>`) and fixed
 *   window, in the database so a limit holds across replicas.
 * - `deliveries.kind`: the delivery queue also carries `access_link` messages, which have no status update
 *   (their link holds a fresh access token, generated when the message is sent and never stored).
 * - `status_updates.language_fallback_from`: the claim's language when a generated message was written in
 *   English because the catalogue has no text in it.
 * - `claims.closing_reason` unless the closing-reasons migration added it already (a claimant withdrawal
 *   closes a claim with reason `withdrawn`).
 */
export const claimantSelfServiceMigration: Migration = {
  name: '0009_claims_claimant_self_service',
  sql: `
      CREATE TABLE rate_limit_windows (
        bucket text NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (bucket, window_start)
      );
      ALTER TABLE deliveries ALTER COLUMN update_id DROP NOT NULL;
      ALTER TABLE deliveries ADD COLUMN kind text NOT NULL DEFAULT 'status_update' CHECK (kind IN ('status_update', 'access_link'));
      ALTER TABLE deliveries ADD CONSTRAINT deliveries_update_of_kind CHECK ((kind = 'status_update') = (update_id IS NOT NULL));
      ALTER TABLE status_updates ADD COLUMN language_fallback_from text;
      ALTER TABLE claims ADD COLUMN IF NOT EXISTS closing_reason text;
    `,
};
