import { inBatches, type Knex } from '@platform/db';
import type { Evidence, EvidenceItem, StoredEvidence } from './evidence-schemas';

/** A row to insert: the stored item without what the database fills in. */
export type NewEvidence = Omit<StoredEvidence, 'submitted_at' | 'superseded_by'>;

interface EvidenceRow extends Omit<StoredEvidence, 'size_bytes' | 'submitted_at' | 'collected_at' | 'redaction'> {
  size_bytes: string | number;
  submitted_at: Date;
  collected_at: Date | null;
  redaction_reason: string | null;
  redacted_by: string | null;
  redacted_at: Date | null;
}

function toStored(row: EvidenceRow): StoredEvidence {
  return { ...toItem(row), content_json: row.content_json };
}

function toItem(row: Omit<EvidenceRow, 'content_json'>): EvidenceItem {
  return {
    evidence_id: row.evidence_id,
    run_id: row.run_id,
    kind: row.kind,
    title: row.title,
    sha256: row.sha256,
    size_bytes: Number(row.size_bytes),
    content_type: row.content_type,
    submitted_by: row.submitted_by,
    submitted_at: row.submitted_at.toISOString(),
    out_of_period: row.out_of_period,
    supersedes: row.supersedes,
    collected_at: row.collected_at ? row.collected_at.toISOString() : null,
    description: row.description,
    url: row.url,
    source: row.source,
    file_name: row.file_name,
    superseded_by: row.superseded_by ?? null,
    ...(row.redacted_at
      ? {
          redaction: {
            reason: row.redaction_reason as string,
            redacted_by: row.redacted_by as string,
            redacted_at: row.redacted_at.toISOString(),
          },
        }
      : {}),
  };
}

/** The contract's 201 representation of a stored item. */
export function evidenceReceipt(item: StoredEvidence): Evidence {
  const {
    evidence_id,
    run_id,
    kind,
    title,
    sha256,
    size_bytes,
    content_type,
    submitted_by,
    submitted_at,
    out_of_period,
    supersedes,
    collected_at,
  } = item;
  return {
    evidence_id,
    run_id,
    kind,
    title,
    sha256,
    size_bytes,
    content_type,
    submitted_by,
    submitted_at,
    out_of_period,
    supersedes,
    collected_at,
  };
}

/** Every column but the JSON content, which lists and manifests do not need (a record may be up to 1 MiB). */
const ITEM_COLUMNS = [
  'evidence_id',
  'run_id',
  'kind',
  'title',
  'description',
  'url',
  'source',
  'collected_at',
  'out_of_period',
  'supersedes',
  'sha256',
  'size_bytes',
  'content_type',
  'file_name',
  'submitted_by',
  'submitted_at',
];

function withSupersededBy(db: Knex, options: { content: boolean }) {
  return db('evidence_items as e')
    .leftJoin('evidence_items as s', 's.supersedes', 'e.evidence_id')
    .leftJoin('evidence_redactions as r', 'r.evidence_id', 'e.evidence_id')
    .select(
      ...(options.content ? ['e.*'] : ITEM_COLUMNS.map((column) => `e.${column}`)),
      's.evidence_id as superseded_by',
      'r.reason as redaction_reason',
      'r.redacted_by',
      'r.redacted_at',
    );
}

const inSubmissionOrder = [{ column: 'e.submitted_at' }, { column: 'e.evidence_id' }];

/** What adding evidence needs of its run: whether it is open, and its period. */
export interface RunOfEvidence {
  run_id: string;
  status: string;
  period_start: string;
  period_end: string;
}

export function evidenceStore(db: Knex) {
  return {
    /** The run evidence is added to; `lock` holds its row until the transaction ends (the run cannot move on meanwhile). */
    async run(runId: string, options: { lock?: boolean } = {}): Promise<RunOfEvidence | undefined> {
      const query = db('evidence_runs')
        .where({ run_id: runId })
        .first(
          'run_id',
          'status',
          db.raw("to_char(period_start, 'YYYY-MM-DD') as period_start"),
          db.raw("to_char(period_end, 'YYYY-MM-DD') as period_end"),
        );
      return options.lock ? query.forUpdate() : query;
    },

    async insert(item: NewEvidence): Promise<StoredEvidence> {
      await db('evidence_items').insert(item);
      return toStored(await withSupersededBy(db, { content: true }).where('e.evidence_id', item.evidence_id).first());
    },

    async find(evidenceId: string): Promise<StoredEvidence | undefined> {
      const row = await withSupersededBy(db, { content: true }).where('e.evidence_id', evidenceId).first();
      return row ? toStored(row) : undefined;
    },

    /** Every item of the run, in the order it was submitted. */
    async listForRun(runId: string): Promise<EvidenceItem[]> {
      const rows: EvidenceRow[] = await withSupersededBy(db, { content: false }).where('e.run_id', runId).orderBy(inSubmissionOrder);
      return rows.map(toItem);
    },

    /** The same items a batch at a time, for runs too large to hold at once (on a transaction). */
    async *listForRunInBatches(runId: string, batchSize: number): AsyncGenerator<EvidenceItem[]> {
      const query = withSupersededBy(db, { content: false }).where('e.run_id', runId).orderBy(inSubmissionOrder);
      for await (const rows of inBatches<EvidenceRow>(db, query, batchSize)) yield rows.map(toItem);
    },

    async countForRun(runId: string): Promise<number> {
      const [row] = await db('evidence_items').where({ run_id: runId }).count({ n: '*' });
      return Number(row.n);
    },

    async contributors(runId: string): Promise<string[]> {
      const rows: { submitted_by: string }[] = await db('evidence_items').where({ run_id: runId }).distinct('submitted_by');
      return rows.map((row) => row.submitted_by);
    },

    /** True when some stored item (of any run) that is not redacted still refers to these bytes. */
    async bytesReferenced(sha256: string): Promise<boolean> {
      return Boolean(
        await db('evidence_items as e')
          .where({ 'e.sha256': sha256, 'e.kind': 'file' })
          .whereNotExists(db('evidence_redactions as r').whereRaw('r.evidence_id = e.evidence_id').select(db.raw('1')))
          .first('e.evidence_id'),
      );
    },

    /** True when a redacted item had these bytes (so their absence from storage is by design). */
    async bytesRedacted(sha256: string): Promise<boolean> {
      return Boolean(
        await db('evidence_items as e')
          .join('evidence_redactions as r', 'r.evidence_id', 'e.evidence_id')
          .where('e.sha256', sha256)
          .first('e.evidence_id'),
      );
    },

    async insertRedaction(redaction: { evidence_id: string; superseded_by: string; reason: string; redacted_by: string }): Promise<Date> {
      const [row] = await db('evidence_redactions').insert(redaction).returning('redacted_at');
      return row.redacted_at as Date;
    },
  };
}
