import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '@platform/canonical-json';
import { withTransactional, type Knex } from '@platform/db';
import { problems } from '@platform/http';
import { recordChange } from '../../shared/record-change';
import { evidenceAdded, evidenceRedacted } from './evidence-events';
import { fileScansStore } from './file-scans';
import type { ScannedFile, ScanOutcome, ScanStatus, UploadedFile } from '@platform/files';
import type {
  Evidence,
  FileEvidenceFields,
  JsonEvidenceRequest,
  RedactionFields,
  RedactionReceipt,
  StoredEvidence,
} from './evidence-schemas';
import { evidenceReceipt, evidenceStore, type NewEvidence, type RunOfEvidence } from './evidence-store';

export interface EvidenceDeps {
  exchange: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The run's period is whole UTC days, half-open: [period_start 00:00Z, period_end + 1 day 00:00Z). */
function outsidePeriod(collectedAt: string | null, run: Pick<RunOfEvidence, 'period_start' | 'period_end'>): boolean {
  if (!collectedAt) return false;
  const at = Date.parse(collectedAt);
  return at < Date.parse(`${run.period_start}T00:00:00Z`) || at >= Date.parse(`${run.period_end}T00:00:00Z`) + DAY_MS;
}

function sha256Hex(bytes: string | Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

type ItemFields = Omit<NewEvidence, 'evidence_id' | 'run_id' | 'out_of_period' | 'submitted_by'>;

/** A received file with its content type. */
export type TypedFile = UploadedFile & { contentType: string };

/** Adding evidence to an open run: one immutable item, one audit record, one event. */
export const evidenceService = (deps: EvidenceDeps) => (db: Knex) => {
  const items = evidenceStore(db);

  async function openRun(runId: string, options: { lock?: boolean } = {}): Promise<RunOfEvidence> {
    const run = await items.run(runId, options);
    if (!run) throw problems.notFound(`No run ${runId}`);
    if (run.status !== 'open') throw problems.conflict(`Run ${runId} is ${run.status}; evidence can only be added to an open run`);
    return run;
  }

  /**
   * `run` is open and locked (openRun with lock) by the caller, before it does any costly work on the item.
   * `scan` is the virus scan outcome of a file (recorded beside the item and in its audit record).
   */
  async function add(run: RunOfEvidence, fields: ItemFields, actor: string, scan?: ScanOutcome): Promise<Evidence> {
    const runId = run.run_id;
    if (fields.supersedes) {
      const old = await items.find(fields.supersedes);
      if (!old || old.run_id !== runId)
        throw problems.unprocessable(`supersedes names no evidence of run ${runId}`, {
          errors: [{ pointer: '/supersedes', message: 'is not evidence of this run' }],
        });
      if (old.superseded_by)
        throw problems.conflict(`Evidence ${old.evidence_id} is already superseded by ${old.superseded_by}; supersede that one instead`, {
          superseded_by: old.superseded_by,
        });
    }
    const evidenceId = randomUUID();
    const stored = await items.insert({
      ...fields,
      evidence_id: evidenceId,
      run_id: runId,
      out_of_period: outsidePeriod(fields.collected_at, run),
      submitted_by: actor,
    });
    if (scan) await fileScansStore(db).insert(evidenceId, scan);
    await recordChange(db, deps.exchange, {
      event: evidenceAdded,
      entity_type: 'run',
      entity_id: runId,
      actor,
      data: {
        run_id: runId,
        evidence_id: evidenceId,
        kind: stored.kind,
        sha256: stored.sha256,
        size_bytes: stored.size_bytes,
        content_type: stored.content_type,
        supersedes: stored.supersedes,
        out_of_period: stored.out_of_period,
        ...(scan ? { scan_status: scan.status, scan_signature: scan.signature } : {}),
      },
    });
    return evidenceReceipt(stored);
  }

  /** The item a redaction replaces: a file, neither redacted nor corrected yet (404, 422, 409 otherwise). */
  async function redactable(evidenceId: string): Promise<StoredEvidence> {
    const original = await items.find(evidenceId);
    if (!original) throw problems.notFound(`No evidence ${evidenceId}`);
    if (original.kind !== 'file')
      throw problems.unprocessable(`Evidence ${evidenceId} is a ${original.kind}, not a file; only a file's bytes can be redacted`);
    if (original.redaction)
      throw problems.conflict(`Evidence ${evidenceId} is already redacted (superseded by ${original.superseded_by})`, {
        superseded_by: original.superseded_by,
      });
    if (original.superseded_by)
      throw problems.conflict(
        `Evidence ${evidenceId} is already superseded by ${original.superseded_by}; a redaction supersedes the latest item of a chain`,
        { superseded_by: original.superseded_by },
      );
    return original;
  }

  return {
    /** Outside a transaction, before a file is streamed: 404 or 409 early. Checked again when storing. */
    assertOpen: (runId: string) => openRun(runId).then(() => undefined),

    async addJson(runId: string, request: JsonEvidenceRequest, actor: string): Promise<Evidence> {
      const run = await openRun(runId, { lock: true });
      const content = canonicalJson(request);
      return add(
        run,
        {
          kind: request.kind,
          title: request.title,
          description: request.description ?? null,
          url: request.url ?? null,
          source: request.source ?? null,
          collected_at: request.collected_at ?? null,
          supersedes: request.supersedes ?? null,
          sha256: sha256Hex(content),
          size_bytes: Buffer.byteLength(content),
          content_type: 'application/json',
          file_name: null,
          content_json: content,
        },
        actor,
      );
    },

    /** Stores the item and places its bytes (`place`, of the upload path: upload-path.ts) as the last step of the transaction. */
    async addFile(
      runId: string,
      fields: FileEvidenceFields,
      file: ScannedFile<TypedFile>,
      actor: string,
      place: (trx: Knex) => Promise<void>,
    ): Promise<Evidence & { scan_status: ScanStatus }> {
      const evidence = await add(
        await openRun(runId, { lock: true }),
        {
          kind: 'file',
          title: fields.title ?? (file.fileName as string),
          description: fields.description ?? null,
          url: null,
          source: fields.source ?? null,
          collected_at: fields.collected_at ?? null,
          supersedes: fields.supersedes ?? null,
          sha256: file.sha256,
          size_bytes: file.sizeBytes,
          content_type: file.contentType,
          file_name: file.fileName ?? null,
          content_json: null,
        },
        actor,
        file.scan,
      );
      await place(db);
      return { ...evidence, scan_status: file.scan.status };
    },

    redactable,

    /**
     * Stores the redacted version as an item superseding the original (in any run status: approved runs
     * hold personal data too), records the redaction and places the new bytes (`place`, as addFile). The
     * original's bytes are removed once this commits (evidence-routes.ts).
     */
    async redact(
      evidenceId: string,
      fields: RedactionFields,
      file: ScannedFile<TypedFile>,
      actor: string,
      place: (trx: Knex) => Promise<void>,
    ): Promise<RedactionReceipt> {
      const first = await items.find(evidenceId);
      const run = first && (await items.run(first.run_id, { lock: true }));
      if (!run) throw problems.notFound(`No evidence ${evidenceId}`);
      // Checked again under the run's lock: two redactions of one item are serialised here.
      const original = await redactable(evidenceId);
      const evidence = await add(
        run,
        {
          kind: 'file',
          title: fields.title ?? original.title,
          description: fields.description ?? null,
          url: null,
          source: original.source,
          collected_at: original.collected_at,
          supersedes: original.evidence_id,
          sha256: file.sha256,
          size_bytes: file.sizeBytes,
          content_type: file.contentType,
          file_name: file.fileName ?? null,
          content_json: null,
        },
        actor,
        file.scan,
      );
      const redactedAt = await items.insertRedaction({
        evidence_id: original.evidence_id,
        superseded_by: evidence.evidence_id,
        reason: fields.reason,
        redacted_by: actor,
      });
      await recordChange(db, deps.exchange, {
        event: evidenceRedacted,
        entity_type: 'run',
        entity_id: run.run_id,
        actor,
        data: {
          run_id: run.run_id,
          evidence_id: original.evidence_id,
          sha256: original.sha256,
          size_bytes: original.size_bytes,
          superseded_by: evidence.evidence_id,
        },
      });
      await place(db);
      return {
        redacted: {
          evidence_id: original.evidence_id,
          sha256: original.sha256,
          reason: fields.reason,
          redacted_by: actor,
          redacted_at: redactedAt.toISOString(),
        },
        evidence: { ...evidence, scan_status: file.scan.status },
      };
    },
  };
};

export function createEvidenceService(deps: EvidenceDeps, db: Knex) {
  const service = withTransactional(evidenceService(deps), db);
  return {
    assertOpen: service.assertOpen,
    /** The item to redact, outside a transaction, before a file is streamed: 404, 409 or 422 early. Checked again when storing. */
    redactable: service.redactable,
    addJson: (runId: string, request: JsonEvidenceRequest, actor: string) => service.transactional((s) => s.addJson(runId, request, actor)),
    addFile: (...args: Parameters<ReturnType<ReturnType<typeof evidenceService>>['addFile']>) =>
      service.transactional((s) => s.addFile(...args)),
    redact: (...args: Parameters<ReturnType<ReturnType<typeof evidenceService>>['redact']>) =>
      service.transactional((s) => s.redact(...args)),
  };
}
