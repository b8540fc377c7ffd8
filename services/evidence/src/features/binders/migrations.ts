import { appendOnlySql, type Migration } from '@platform/db';

/** Binders are immutable: building again adds a new one. `manifest_json` holds the exact hashed bytes. */
export const bindersMigration: Migration = {
  name: '0005_evidence_binders',
  async up(db) {
    await db.raw(`
      CREATE TABLE evidence_binders (
        binder_id uuid PRIMARY KEY,
        run_id uuid NOT NULL REFERENCES evidence_runs (run_id),
        final boolean NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        manifest_json text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX evidence_binders_run_idx ON evidence_binders (run_id, created_at);
      ${appendOnlySql('evidence_binders')}`);
  },
};

/**
 * Splits stored manifests into their parts, one row each, so a binder's zip is streamed a page at a
 * time instead of parsing its whole manifest: `head` (the manifest without its two large arrays),
 * `evidence` (each item, in order) and `audit` (each audit record, in order). PostgreSQL derives them
 * from `manifest_json` itself, so they can never say anything the hashed manifest does not.
 */
export function splitManifestsSql(binderFilter: string): string {
  return `
    INSERT INTO evidence_binder_parts (binder_id, section, ordinal, item)
    SELECT b.binder_id, parts.section, items.ordinal, items.item
    FROM (SELECT binder_id, manifest_json::jsonb AS manifest FROM evidence_binders WHERE ${binderFilter}) b
    CROSS JOIN LATERAL (VALUES
      ('head', jsonb_build_array((b.manifest - 'evidence') #- '{audit,records}')),
      ('evidence', b.manifest -> 'evidence'),
      ('audit', b.manifest -> 'audit' -> 'records')
    ) AS parts (section, items)
    CROSS JOIN LATERAL jsonb_array_elements(parts.items) WITH ORDINALITY AS items (item, ordinal)`;
}

/**
 * A binder's manifest is also kept as its exact text in chunks of about 64 K characters, written as it is
 * built and read back a chunk at a time (a `substr` of the one large column would decompress all of it
 * for every chunk). The binder row's `manifest_json` is made from them by PostgreSQL; the foreign key
 * is checked at commit because the chunks come first.
 */
export const binderPartsMigration: Migration = {
  name: '0006_evidence_binder_parts',
  async up(db) {
    await db.raw(`
      CREATE TABLE evidence_binder_manifest_chunks (
        binder_id uuid NOT NULL REFERENCES evidence_binders (binder_id) DEFERRABLE INITIALLY DEFERRED,
        n integer NOT NULL CHECK (n > 0),
        chunk text NOT NULL,
        PRIMARY KEY (binder_id, n)
      );
      INSERT INTO evidence_binder_manifest_chunks (binder_id, n, chunk) SELECT binder_id, 1, manifest_json FROM evidence_binders;
      ${appendOnlySql('evidence_binder_manifest_chunks')}
      CREATE TABLE evidence_binder_parts (
        binder_id uuid NOT NULL REFERENCES evidence_binders (binder_id),
        section text NOT NULL CHECK (section IN ('head', 'evidence', 'audit')),
        ordinal integer NOT NULL CHECK (ordinal > 0),
        item jsonb NOT NULL,
        PRIMARY KEY (binder_id, section, ordinal)
      );
      ${splitManifestsSql('true')};
      ${appendOnlySql('evidence_binder_parts')}`);
  },
};
