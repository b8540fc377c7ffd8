import { randomUUID } from 'node:crypto';
import { keysetPages, type Knex } from '@platform/db';
import { decodeCursor, pageOf, problems } from '@platform/http';
import type { AuditRecord } from '../../shared/audit-chain';
import { evidenceStore, fileScansStore } from '../evidence';
import type { FileStorage } from '@platform/files';
import { recordChange } from '../../shared/record-change';
import { binderBuilt } from './binders-events';
import type { BinderContents, BinderHead, EvidenceEntry } from './binder-zip';
import { writeManifest, type ManifestEvidence } from './manifest';
import { checkpointCovering, auditStore, type CheckpointSigner } from '../audit';
import { runsStore } from '../runs';
import type { BinderSummary, ListBindersQuery } from './binders-schemas';
import { bindersStore, type BinderPart, type BinderRecord, type BinderSection } from './binders-store';

export interface BindersDeps {
  exchange: string;
  files: FileStorage;
  publicBaseUrl: string;
  /** Signs the checkpoint a binder needs when none covers its records yet. */
  signer: CheckpointSigner;
}

// Pages of 100 rather than 500 for the same reason as the manifest's (manifest.ts).
const PAGE = { list: 25, evidenceWithContent: 32, evidence: 100, audit: 100, files: 1000 };

const downloadUrlOf = (publicBaseUrl: string, binderId: string) =>
  `${publicBaseUrl.replace(/\/+$/, '')}/api/evidence/binder-archives/${binderId}`;

/**
 * The contract's binder representation as JSON text, in pieces. The manifest goes in as the stored
 * canonical text, read a chunk at a time and never parsed and serialised again: for a large run it
 * is megabytes.
 */
async function* binderJson(record: BinderRecord, manifestChunks: AsyncIterable<string>, publicBaseUrl: string): AsyncGenerator<string> {
  const { binder_id, run_id, final, created_at, sha256 } = record;
  yield `${JSON.stringify({ binder_id, run_id, final, created_at, sha256 }).slice(0, -1)},"manifest":`;
  yield* manifestChunks;
  yield `,"download_url":${JSON.stringify(downloadUrlOf(publicBaseUrl, binder_id))}}`;
}

/** Examiner-ready binders of runs: built from the run's state, stored immutable, packaged as a zip. */
export const bindersService = (deps: BindersDeps) => (db: Knex) => {
  const binders = bindersStore(db);

  async function find(binderId: string): Promise<BinderRecord> {
    const record = await binders.find(binderId);
    if (!record) throw problems.notFound(`No binder ${binderId}`);
    return record;
  }

  const pages = <Item>(
    binderId: string,
    section: BinderSection,
    size: number,
    options = { content: false },
  ): AsyncGenerator<BinderPart<Item>[]> =>
    keysetPages(
      (after: number) => binders.parts<Item>(binderId, section, after, size, options),
      (part) => part.ordinal,
      0,
      size,
    );

  return {
    /** Builds and stores a binder (on a transaction). */
    async build(runId: string, actor: string): Promise<BinderRecord> {
      // An examiner opens every file of a binder: none may be quarantined or still unscanned.
      const heldBack = await fileScansStore(db).unservable(runId);
      if (heldBack.length > 0) {
        throw problems.conflict(
          `The run has ${heldBack.length} evidence file(s) the virus scan holds back (infected, or pending a scan); a binder would serve them`,
          { files: heldBack },
        );
      }
      // The run row first, then the chain, as a decision takes them (no deadlock between the two).
      if (!(await runsStore(db).find(runId, { lock: true }))) throw problems.notFound(`No run ${runId}`);
      // An examiner-ready binder verifies the moment it is built: the head is signed now unless a checkpoint
      // covers the run's records already (in this transaction, so a refused build leaves no checkpoint or event behind).
      const [lastRecord] = await auditStore(db).listRecords({ entity_id: runId, limit: 1, newest_first: true });
      if (lastRecord) await checkpointCovering(db, deps.signer, deps.exchange, lastRecord.seq);
      const binderId = randomUUID();
      const writer = binders.manifestWriter(binderId);
      const manifest = await writeManifest(db, runId, deps.signer, writer.write);
      if (!manifest) throw problems.notFound(`No run ${runId}`);
      const sha256 = await writer.finish();
      const record = await binders.insert({ binder_id: binderId, run_id: runId, final: manifest.final, sha256, created_by: actor });
      await recordChange(db, deps.exchange, {
        event: binderBuilt,
        entity_type: 'binder',
        entity_id: binderId,
        actor,
        data: { binder_id: binderId, run_id: runId, final: manifest.final, sha256, evidence_count: manifest.evidenceCount },
      });
      return record;
    },

    find,

    /** A page of binders (of one run, or all), newest first, without their manifests. */
    async list(query: ListBindersQuery): Promise<{ items: BinderSummary[]; next_cursor: string | null }> {
      const limit = query.limit ?? PAGE.list;
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const rows = await binders.page(query.run_id?.toLowerCase(), after, limit + 1);
      return pageOf(
        rows,
        limit,
        (row) => ({
          binder_id: row.binder_id,
          run_id: row.run_id,
          final: row.final,
          created_at: row.created_at,
          created_by: row.created_by,
          sha256: row.sha256,
          download_url: downloadUrlOf(deps.publicBaseUrl, row.binder_id),
        }),
        (row) => row.position,
      );
    },

    /** A stored binder as the contract's JSON text, a piece at a time. */
    json: (record: BinderRecord): AsyncGenerator<string> =>
      binderJson(record, binders.manifestChunks(record.binder_id), deps.publicBaseUrl),

    /** What the zip is written from, checked before the first byte is sent (a missing file is an error, not a broken zip). */
    async zipContents(binderId: string): Promise<BinderContents> {
      const binder = await find(binderId);
      for await (const files of keysetPages(
        (after: number) => binders.fileHashes(binderId, after, PAGE.files),
        (file) => file.ordinal,
        0,
        PAGE.files,
      )) {
        for (const file of files) {
          if (await deps.files.has(file.sha256)) continue;
          if (await evidenceStore(db).bytesRedacted(file.sha256))
            throw problems.gone(
              `Binder ${binderId} holds evidence redacted since it was built (sha256 ${file.sha256}); build a new binder of the run`,
            );
          throw new Error(`evidence file ${file.sha256} of binder ${binderId} is missing from storage`);
        }
      }
      const [head] = await binders.parts<BinderHead>(binderId, 'head', 0, 1);
      const counts = await binders.sectionCounts(binderId);
      const [firstRecord] = await binders.parts<AuditRecord>(binderId, 'audit', 0, 1);
      return {
        binder,
        head: head.item,
        evidenceCount: counts.evidence,
        auditCount: counts.audit,
        firstAuditSeq: firstRecord?.item.seq,
        manifestChunks: () => binders.manifestChunks(binderId),
        evidence: async function* ({ content }): AsyncGenerator<EvidenceEntry[]> {
          const size = content ? PAGE.evidenceWithContent : PAGE.evidence;
          yield* pages<ManifestEvidence>(binderId, 'evidence', size, { content });
        },
        auditRecords: async function* (): AsyncGenerator<AuditRecord[]> {
          for await (const page of pages<AuditRecord>(binderId, 'audit', PAGE.audit)) yield page.map((part) => part.item);
        },
        openFile: (sha256) => deps.files.open(sha256),
      };
    },
  };
};
