import type { Migration } from '@platform/db';

/**
 * Files encrypted at rest with their claimant's data key (streamed `pvf1`, @platform/files).
 *
 * - `attachments.stored_sha256`: the SHA-256 of the stored, encrypted bytes, which is also the file's address
 *   in storage (the same plaintext sealed for two attachments never shares an address). Null: a file stored
 *   before encryption (or with it off), in plain text at `sha256`.
 * - `claimant_exports.archive_stored_sha256`: the same for an export archive (`archive_sha256` stays the
 *   SHA-256 of the zip the claimant downloads).
 */
export const encryptedFilesMigration: Migration = {
  name: '0030_claims_encrypted_files',
  sql: `
      ALTER TABLE attachments ADD COLUMN stored_sha256 text CHECK (stored_sha256 ~ '^[0-9a-f]{64}$');
      CREATE UNIQUE INDEX attachments_stored_sha256_idx ON attachments (stored_sha256);
      ALTER TABLE claimant_exports ADD COLUMN archive_stored_sha256 text CHECK (archive_stored_sha256 ~ '^[0-9a-f]{64}$');
  `,
};
