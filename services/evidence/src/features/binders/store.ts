import type { Knex } from '@platform/db';
import type { EvidenceKind } from '../evidence/schemas';
import { splitManifestsSql } from './migration';

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
const MANIFEST_CHUNK_CHARS = 1 << 20;

const toRecord = (row: Omit<BinderRecord, 'created_at'> & { created_at: Date }): BinderRecord => ({ ...row, created_at: row.created_at.toISOString() });

export function bindersStore(db: Knex) {
  return {
    /** Stores the binder and its manifest split into parts (see `splitManifestsSql`). */
    async insert(binder: Omit<BinderRecord, 'created_at'> & { manifest_json: string; created_by: string }): Promise<BinderRecord> {
      const [row] = await db('evidence_binders').insert(binder).returning(RECORD_COLUMNS);
      await db.raw(splitManifestsSql('binder_id = ?'), [binder.binder_id]);
      return toRecord(row);
    },

    async find(binderId: string): Promise<BinderRecord | undefined> {
      const row = await db('evidence_binders').where({ binder_id: binderId }).first(RECORD_COLUMNS);
      return row ? toRecord(row) : undefined;
    },

    async manifestJson(binderId: string): Promise<string> {
      const row = await db('evidence_binders').where({ binder_id: binderId }).first('manifest_json');
      return row.manifest_json;
    },

    /** The stored manifest text a chunk at a time (for the zip, which must not hold it whole). */
    async *manifestChunks(binderId: string): AsyncGenerator<string> {
      for (let start = 1; ; start += MANIFEST_CHUNK_CHARS) {
        const [row] = await db('evidence_binders').where({ binder_id: binderId }).select(db.raw('substr(manifest_json, ?, ?) AS chunk', [start, MANIFEST_CHUNK_CHARS]));
        if (row.chunk) yield row.chunk;
        if (row.chunk.length < MANIFEST_CHUNK_CHARS) return;
      }
    },

    /** One page of a section, in manifest order; with `content`, evidence parts carry the JSON of non-file items. */
    async parts<Item>(binderId: string, section: BinderSection, afterOrdinal: number, limit: number, options = { content: false }): Promise<BinderPart<Item>[]> {
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
      const rows: { section: BinderSection; n: string }[] = await db('evidence_binder_parts').where({ binder_id: binderId }).groupBy('section').select('section', db.raw('count(*) AS n'));
      const counts: Record<BinderSection, number> = { head: 0, evidence: 0, audit: 0 };
      for (const row of rows) counts[row.section] = Number(row.n);
      return counts;
    },

    /** The stored files a binder's evidence refers to, by hash. */
    async fileHashes(binderId: string, afterOrdinal: number, limit: number): Promise<{ ordinal: number; sha256: string }[]> {
      return db('evidence_binder_parts')
        .where({ binder_id: binderId, section: 'evidence' })
        .andWhere('ordinal', '>', afterOrdinal)
        .andWhereRaw("item ->> 'kind' = ?", ['file' satisfies EvidenceKind])
        .orderBy('ordinal')
        .limit(limit)
        .select('ordinal', db.raw("item ->> 'sha256' AS sha256"));
    },
  };
}
