import type { Migration } from '@platform/db';

/**
 * A binder's manifest is also kept as its exact text in chunks of about 64 K characters, written as it is
 * built and read back a chunk at a time (a `substr` of the one large column would decompress all of it
 * for every chunk). The binder row's `manifest_json` is made from them by PostgreSQL; the foreign key
 * is checked at commit because the chunks come first. Binders stored before it are split into their parts
 * here, later ones by the binder store, each row of `evidence_binder_parts` derived by PostgreSQL from
 * `manifest_json`.
 */
export const binderPartsMigration: Migration = {
  name: '0006_evidence_binder_parts',
  sql: `
      CREATE TABLE evidence_binder_manifest_chunks (
        binder_id uuid NOT NULL REFERENCES evidence_binders (binder_id) DEFERRABLE INITIALLY DEFERRED,
        n integer NOT NULL CHECK (n > 0),
        chunk text NOT NULL,
        PRIMARY KEY (binder_id, n)
      );
      INSERT INTO evidence_binder_manifest_chunks (binder_id, n, chunk) SELECT binder_id, 1, manifest_json FROM evidence_binders;

    CREATE OR REPLACE FUNCTION refuse_change_evidence_binder_manifest_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'evidence_binder_manifest_chunks is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER evidence_binder_manifest_chunks_no_update_delete BEFORE UPDATE OR DELETE ON evidence_binder_manifest_chunks
      FOR EACH ROW EXECUTE FUNCTION refuse_change_evidence_binder_manifest_chunks();
    CREATE TRIGGER evidence_binder_manifest_chunks_no_truncate BEFORE TRUNCATE ON evidence_binder_manifest_chunks
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_evidence_binder_manifest_chunks();
      CREATE TABLE evidence_binder_parts (
        binder_id uuid NOT NULL REFERENCES evidence_binders (binder_id),
        section text NOT NULL CHECK (section IN ('head', 'evidence', 'audit')),
        ordinal integer NOT NULL CHECK (ordinal > 0),
        item jsonb NOT NULL,
        PRIMARY KEY (binder_id, section, ordinal)
      );

    INSERT INTO evidence_binder_parts (binder_id, section, ordinal, item)
    SELECT b.binder_id, parts.section, items.ordinal, items.item
    FROM (SELECT binder_id, manifest_json::jsonb AS manifest FROM evidence_binders WHERE true) b
    CROSS JOIN LATERAL (VALUES
      ('head', jsonb_build_array((b.manifest - 'evidence') #- '{audit,records}')),
      ('evidence', b.manifest -> 'evidence'),
      ('audit', b.manifest -> 'audit' -> 'records')
    ) AS parts (section, items)
    CROSS JOIN LATERAL jsonb_array_elements(parts.items) WITH ORDINALITY AS items (item, ordinal);

    CREATE OR REPLACE FUNCTION refuse_change_evidence_binder_parts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'evidence_binder_parts is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER evidence_binder_parts_no_update_delete BEFORE UPDATE OR DELETE ON evidence_binder_parts
      FOR EACH ROW EXECUTE FUNCTION refuse_change_evidence_binder_parts();
    CREATE TRIGGER evidence_binder_parts_no_truncate BEFORE TRUNCATE ON evidence_binder_parts
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_evidence_binder_parts();`,
};
