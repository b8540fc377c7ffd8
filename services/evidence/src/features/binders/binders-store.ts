import { createHash } from 'node:crypto';
import { keysetPages, type Knex } from '@platform/db';
import type { EvidenceKind } from '../evidence';
import { cursorTimestampSql, type NewestFirstPosition } from '@platform/http';

/**
 * Splits a stored binder's manifest into its parts, one row each, so its zip is streamed a page at a
 * time instead of parsing its whole manifest: `head` (the manifest without its two large arrays),
 * `evidence` (each item, in order) and `audit` (each audit record, in order). PostgreSQL derives them
 * from `manifest_json` itself, so they can never say anything the hashed manifest does not.
 * (Migration 0006 split the binders stored before it with the same query.)
 */
const SPLIT_MANIFEST_SQL = `
  INSERT INTO evidence_binder_parts (binder_id, section, ordinal, item)
  SELECT b.binder_id, parts.section, items.ordinal, items.item
  FROM (SELECT binder_id, manifest_json::jsonb AS manifest FROM evidence_binders WHERE binder_id = ?) b
  CROSS JOIN LATERAL (VALUES
    ('head', jsonb_build_array((b.manifest - 'evidence') #- '{audit,records}' #- '{audit,proofs}')),
    ('evidence', b.manifest -> 'evidence'),
    ('audit', b.manifest -> 'audit' -> 'records')
  ) AS parts (section, items)
  CROSS JOIN LATERAL jsonb_array_elements(parts.items) WITH ORDINALITY AS items (item, ordinal)`;

/** A binder's row without its manifest, which can be megabytes and is read only when asked for. */
export interface BinderRecord {
  binder_id: string;
  run_id: string;
  final: boolean;
  sha256: string;
  created_at: string;
}

export type BinderSection = 'head' | 'evidence' | 'audit';

export interface BinderPart<Item> {
  ordinal: number;
  item: Item;
  /** For evidence that is not a file: its stored canonical JSON (the bytes of its zip entry). */
  content_json?: string | null;
}

const RECORD_COLUMNS = ['binder_id', 'run_id', 'final', 'sha256', 'created_at'];
// Under V8's large-object size (128 KiB): larger strings go to a space that only a full collection frees.
const MANIFEST_CHUNK_CHARS = 1 << 16;
// 256 K characters a read: what is read stays alive until the client has taken it.
const MANIFEST_CHUNKS_PER_READ = 4;

/**
 * A manifest on its way into PostgreSQL: pieces are gathered into chunks of about 1 M characters, each
 * stored as it fills and hashed as it goes; PostgreSQL then joins the chunks into the binder's row. No
 * message, buffer or string of the whole manifest is ever made here, however large the run.
 */
export interface ManifestWriter {
  write(text: string): Promise<void>;
  /** SHA-256 of everything written, hex; ends the writing. */
  finish(): Promise<string>;
}

const toRecord = (row: Omit<BinderRecord, 'created_at'> & { created_at: Date }): BinderRecord => ({
  ...row,
  created_at: row.created_at.toISOString(),
});

export function bindersStore(db: Knex) {
  return {
    /** Starts writing the manifest of a binder about to be inserted (on a transaction: see the migration). */
    manifestWriter(binderId: string): ManifestWriter {
      const hash = createHash('sha256');
      let pieces: string[] = [];
      let length = 0;
      let chunks = 0;
      const flush = async () => {
        if (pieces.length === 0) return;
        const chunk = pieces.join('');
        pieces = [];
        length = 0;
        hash.update(chunk, 'utf8');
        await db('evidence_binder_manifest_chunks').insert({ binder_id: binderId, n: ++chunks, chunk });
      };
      return {
        async write(text) {
          pieces.push(text);
          length += text.length;
          if (length >= MANIFEST_CHUNK_CHARS) await flush();
        },
        async finish() {
          await flush();
          return hash.digest('hex');
        },
      };
    },

    /** Stores the binder, its manifest joined from the written chunks, and split into parts (SPLIT_MANIFEST_SQL). */
    async insert(binder: Omit<BinderRecord, 'created_at'> & { created_by: string }): Promise<BinderRecord> {
      const { rows } = (await db.raw(
        `INSERT INTO evidence_binders (binder_id, run_id, final, sha256, created_by, manifest_json)
         SELECT ?, ?, ?, ?, ?, string_agg(chunk, '' ORDER BY n) FROM evidence_binder_manifest_chunks WHERE binder_id = ?
         RETURNING ${RECORD_COLUMNS.join(', ')}`,
        [binder.binder_id, binder.run_id, binder.final, binder.sha256, binder.created_by, binder.binder_id],
      )) as { rows: (Omit<BinderRecord, 'created_at'> & { created_at: Date })[] };
      await db.raw(SPLIT_MANIFEST_SQL, [binder.binder_id]);
      return toRecord(rows[0]);
    },

    /** Up to `limit` binders (of one run, or all) after `after`, newest first by (created_at, binder_id). */
    async page(
      runId: string | undefined,
      after: NewestFirstPosition | undefined,
      limit: number,
    ): Promise<(BinderRecord & { created_by: string; position: NewestFirstPosition })[]> {
      const query = db('evidence_binders').select(
        ...RECORD_COLUMNS,
        'created_by',
        db.raw(`${cursorTimestampSql('created_at')} AS cursor_created_at`),
      );
      if (runId !== undefined) query.where({ run_id: runId });
      if (after) query.whereRaw('(created_at, binder_id) < (?::timestamptz, ?::uuid)', [after.created_at, after.id]);
      const rows = await query
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'binder_id', order: 'desc' },
        ])
        .limit(limit);
      return rows.map(
        ({
          cursor_created_at,
          ...row
        }: { cursor_created_at: string; created_by: string } & Omit<BinderRecord, 'created_at'> & { created_at: Date }) => ({
          ...toRecord(row),
          created_by: row.created_by,
          position: { created_at: cursor_created_at, id: row.binder_id },
        }),
      );
    },

    async find(binderId: string): Promise<BinderRecord | undefined> {
      const row = await db('evidence_binders').where({ binder_id: binderId }).first(RECORD_COLUMNS);
      return row ? toRecord(row) : undefined;
    },

    /** The stored manifest text a chunk at a time (for responses and the zip, which must not hold it whole). */
    async *manifestChunks(binderId: string): AsyncGenerator<string> {
      const read = (after: number): Promise<{ n: number; chunk: string }[]> =>
        db('evidence_binder_manifest_chunks')
          .where({ binder_id: binderId })
          .andWhere('n', '>', after)
          .orderBy('n')
          .limit(MANIFEST_CHUNKS_PER_READ)
          .select('n', 'chunk');
      for await (const rows of keysetPages(read, (row) => row.n, 0, MANIFEST_CHUNKS_PER_READ)) {
        for (const row of rows) yield row.chunk;
      }
    },

    /** One page of a section, in manifest order; with `content`, evidence parts carry the JSON of non-file items. */
    async parts<Item>(
      binderId: string,
      section: BinderSection,
      afterOrdinal: number,
      limit: number,
      options = { content: false },
    ): Promise<BinderPart<Item>[]> {
      const query = db('evidence_binder_parts as p')
        .where({ 'p.binder_id': binderId, 'p.section': section })
        .andWhere('p.ordinal', '>', afterOrdinal)
        .orderBy('p.ordinal')
        .limit(limit)
        .select('p.ordinal', 'p.item');
      if (section === 'evidence' && options.content) {
        query.leftJoin('evidence_items as e', function joinContent() {
          this.on('e.evidence_id', '=', db.raw("(p.item ->> 'evidence_id')::uuid")).andOn(db.raw("p.item ->> 'kind' <> 'file'"));
        });
        query.select('e.content_json');
      }
      return query;
    },

    async sectionCounts(binderId: string): Promise<Record<BinderSection, number>> {
      const rows: { section: BinderSection; n: string }[] = await db('evidence_binder_parts')
        .where({ binder_id: binderId })
        .groupBy('section')
        .select('section', db.raw('count(*) AS n'));
      const counts: Record<BinderSection, number> = { head: 0, evidence: 0, audit: 0 };
      for (const row of rows) counts[row.section] = Number(row.n);
      return counts;
    },

    /**
     * The largest signed tree head smaller than `treeSize` among the binders of the control (for a
     * consistency proof). Chosen by size, not by when binders were built, so rebuilding the same run
     * state gives the same manifest.
     */
    async previousCheckpointNote(controlId: string, treeSize: number): Promise<string | undefined> {
      const size = "split_part(p.item #>> '{audit,checkpoint,note}', E'\\n', 2)::bigint";
      const row = await db('evidence_binders as b')
        .join('evidence_runs as r', 'r.run_id', 'b.run_id')
        .join('evidence_control_versions as v', 'v.control_version_id', 'r.control_version_id')
        .join('evidence_binder_parts as p', function joinHead() {
          this.on('p.binder_id', '=', 'b.binder_id').andOnVal('p.section', '=', 'head').andOnVal('p.ordinal', '=', 1);
        })
        .where('v.control_id', controlId)
        .whereRaw("p.item #>> '{audit,checkpoint,note}' IS NOT NULL")
        .whereRaw(`${size} < ?`, [treeSize])
        .orderByRaw(`${size} DESC`)
        .first(db.raw("p.item #>> '{audit,checkpoint,note}' AS note"));
      return row?.note;
    },

    /** The stored files a binder's evidence refers to, by hash. */
    async fileHashes(binderId: string, afterOrdinal: number, limit: number): Promise<{ ordinal: number; sha256: string }[]> {
      return db('evidence_binder_parts')
        .where({ binder_id: binderId, section: 'evidence' })
        .andWhere('ordinal', '>', afterOrdinal)
        .andWhereRaw("item ->> 'kind' = ?", ['file' satisfies EvidenceKind])
        .andWhereRaw("item -> 'redaction' IS NULL")
        .orderBy('ordinal')
        .limit(limit)
        .select('ordinal', db.raw("item ->> 'sha256' AS sha256"));
    },
  };
}
