import { randomUUID } from 'node:crypto';
import { canonicalJson } from '@platform/canonical-json';
import { keysetPages, type Knex } from '@platform/db';
import type { AuditRecord } from '../../shared/audit-chain';
import { auditStore, cosignedCheckpointNote, checkpointMessage } from '../audit';
import { controlsStore, type ControlVersion } from '../controls';
import { EXTENSIONS_BY_TYPE, evidenceStore, type EvidenceItem, type EvidenceKind, type Redaction } from '../evidence';
import { type Decision, type RunState, runsStore } from '../runs';
import { consistencyWith, inclusionProofsOf, noteTreeSize } from './audit-proofs-for-binder';
import { bindersStore } from './binders-store';
import { BINDER_FORMAT, type AuditConsistency, type AuditRecordProof } from './verifier/binder-format';

export const MANIFEST_FORMAT = BINDER_FORMAT;
// Small pages: a page that outlives two young-generation collections is copied into the old generation,
// which only a full collection frees: building a 10,000-item binder grew RSS by 21-33 MB with pages of
// 500, by 2-16 MB with pages of 100 (docs/BENCHMARKS.md).
const AUDIT_PAGE = 100;
const EVIDENCE_BATCH = 100;

export interface ManifestEvidence {
  evidence_id: string;
  kind: EvidenceKind;
  title: string;
  description: string | null;
  url: string | null;
  source: string | null;
  collected_at: string | null;
  out_of_period: boolean;
  supersedes: string | null;
  superseded_by: string | null;
  sha256: string;
  size_bytes: number;
  content_type: string;
  file_name: string | null;
  submitted_by: string;
  submitted_at: string;
  /** Where the bytes are inside the binder's zip (not there for a redacted item). */
  path: string;
  /** Only on a redacted item: why and by whom its bytes were destroyed; `superseded_by` names its redacted version. */
  redaction?: Redaction;
}

export interface ManifestCheckpoint {
  seq: number;
  hash: string;
  signed_at: string;
  key_id: string;
  /** Base64 Ed25519 signature over `message`. */
  signature: string;
  /** The signed bytes (UTF-8): canonical JSON of { hash, seq }. */
  message: string;
  /** SPKI PEM of the signing key, when it is the service's current key. */
  public_key_pem: string | null;
  /** The Merkle tree head of the first `seq` records as a C2SP signed note, with every cosignature it carries (null before the tree). */
  note: string | null;
}

/** The hashed part of a binder: built only from the run's state, so the same state gives the same bytes. */
export interface Manifest {
  format: string;
  control: ControlVersion & { control_id: string; key: string };
  run: Omit<RunState, 'control_id' | 'control_key' | 'control_version'>;
  final: boolean;
  evidence: ManifestEvidence[];
  decisions: Omit<Decision, 'run_id'>[];
  audit: {
    records: AuditRecord[];
    checkpoint: ManifestCheckpoint | null;
    /** For each record, in the same order: its canonical bytes and inclusion proof against `checkpoint.note` (empty without a note). */
    proofs: AuditRecordProof[];
    /** From the largest smaller tree head of an earlier binder of the same control, when there is one. */
    consistency: AuditConsistency | null;
  };
}

export interface AuditKey {
  keyId: string;
  publicKeyPem: string;
}

/** A file name that is safe in a zip and on every file system: ASCII letters, digits, dot, dash, underscore. */
export function safeName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 80);
  return cleaned || 'evidence';
}

/**
 * A file's name in the zip keeps its extension only when that extension is one of its detected type:
 * otherwise the type's own is added, so text sent as `report.html` or `logo.svg` unpacks as
 * `report.html.txt` and opens as text instead of rendering or running.
 */
function fileEntryName(fileName: string, contentType: string): string {
  const name = safeName(fileName);
  const allowed = EXTENSIONS_BY_TYPE[contentType] ?? ['bin'];
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1].toLowerCase();
  return extension !== undefined && allowed.includes(extension) ? name : `${name}.${allowed[0]}`;
}

function evidencePath(item: { sha256: string; kind: EvidenceKind; file_name: string | null; title: string; content_type: string }): string {
  const name =
    item.kind === 'file'
      ? fileEntryName(item.file_name ?? item.title, item.content_type)
      : `${safeName(item.title).replace(/\.json$/i, '')}.json`;
  return `evidence/${item.sha256}-${name}`;
}

function manifestEvidence(item: EvidenceItem): ManifestEvidence {
  return {
    evidence_id: item.evidence_id,
    kind: item.kind,
    title: item.title,
    description: item.description,
    url: item.url,
    source: item.source,
    collected_at: item.collected_at,
    out_of_period: item.out_of_period,
    supersedes: item.supersedes,
    superseded_by: item.superseded_by,
    sha256: item.sha256,
    size_bytes: item.size_bytes,
    content_type: item.content_type,
    file_name: item.file_name,
    submitted_by: item.submitted_by,
    submitted_at: item.submitted_at,
    path: evidencePath(item),
    ...(item.redaction ? { redaction: item.redaction } : {}),
  };
}

/** Writes the elements of one JSON array into `sink`, commas between them; counts them. */
function arrayElements(sink: ManifestSink): ((text: string) => Promise<void>) & { count: () => number } {
  let written = 0;
  const write = (text: string) => sink((written++ === 0 ? '' : ',') + text);
  return Object.assign(write, { count: () => written });
}

export interface WrittenManifest {
  final: boolean;
  evidenceCount: number;
}

/** Where the manifest's canonical text goes, piece by piece, in order. */
export type ManifestSink = (text: string) => Promise<void>;

/**
 * Writes the manifest of a run, as RFC 8785 canonical JSON, into `sink`, on the caller's transaction
 * (the run row locked, so it is one consistent state). The checkpoint is the first one covering the
 * run's last record: once it exists it never changes, unlike the newest one.
 *
 * A run may hold tens of thousands of items, so the manifest never exists whole here: audit records
 * are read a page at a time (keyset on seq) and evidence through a cursor, each written out as its
 * canonical JSON and dropped. The small members are canonicalised together with a placeholder for each
 * of the two arrays, and the arrays' elements are written in the placeholders' places: the same text
 * as canonicalising the whole `Manifest` at once.
 */
export async function writeManifest(
  db: Knex,
  runId: string,
  auditKey: AuditKey | undefined,
  sink: ManifestSink,
): Promise<WrittenManifest | undefined> {
  const run = await runsStore(db).find(runId, { lock: true });
  if (!run) return undefined;
  const control = await controlsStore(db).findVersion(run.control_version_id);
  const decisions = await runsStore(db).decisions(runId);
  const [lastRecord] = await auditStore(db).listRecords({ entity_id: runId, limit: 1, newest_first: true });
  const lastSeq = lastRecord?.seq;
  const [checkpoint] = lastSeq === undefined ? [] : await auditStore(db).listCheckpoints({ after_seq: lastSeq - 1, limit: 1 });
  const treeSize = checkpoint?.note ? noteTreeSize(checkpoint.note) : undefined;
  const previous = treeSize === undefined ? undefined : await bindersStore(db).previousCheckpointNote(run.control_id, treeSize);
  const { control_id: _c, control_key: _k, control_version: _v, ...runFields } = run;
  const placeholder = { evidence: `evidence-${randomUUID()}`, records: `records-${randomUUID()}`, proofs: `proofs-${randomUUID()}` };
  const skeleton: Omit<Manifest, 'evidence' | 'audit'> & {
    evidence: string;
    audit: Omit<Manifest['audit'], 'records' | 'proofs'> & { records: string; proofs: string };
  } = {
    format: MANIFEST_FORMAT,
    control: control as Manifest['control'],
    run: runFields,
    final: run.status === 'approved',
    evidence: placeholder.evidence,
    decisions: decisions.map(({ run_id: _r, ...decision }) => decision),
    audit: {
      records: placeholder.records,
      checkpoint: checkpoint
        ? {
            seq: checkpoint.seq,
            hash: checkpoint.hash,
            signed_at: checkpoint.signed_at,
            key_id: checkpoint.key_id,
            signature: checkpoint.signature,
            message: checkpointMessage(checkpoint.seq, checkpoint.hash).toString('utf8'),
            public_key_pem: auditKey && auditKey.keyId === checkpoint.key_id ? auditKey.publicKeyPem : null,
            note: checkpoint.note === null ? null : ((await cosignedCheckpointNote(db, checkpoint.seq)) ?? null),
          }
        : null,
      consistency: previous && treeSize !== undefined ? await consistencyWith(db, previous, treeSize) : null,
      proofs: placeholder.proofs,
    },
  };
  // Canonical key order: audit.proofs, audit.records, then evidence.
  const [beforeProofs, afterProofs] = canonicalJson(skeleton).split(`"${placeholder.proofs}"`);
  const [betweenProofsAndRecords, afterRecords] = afterProofs.split(`"${placeholder.records}"`);
  const [betweenArrays, afterEvidence] = afterRecords.split(`"${placeholder.evidence}"`);
  const recordPages = () =>
    lastSeq === undefined
      ? []
      : keysetPages(
          (after: number) => auditStore(db).listRecords({ entity_id: runId, limit: AUDIT_PAGE, after_seq: after, to_seq: lastSeq }),
          (item) => item.seq,
          0,
          AUDIT_PAGE,
        );

  await sink(`${beforeProofs}[`);
  const proof = arrayElements(sink);
  if (treeSize !== undefined) {
    for await (const page of recordPages())
      for (const item of await inclusionProofsOf(
        db,
        page.map((r) => r.seq),
        treeSize,
      ))
        await proof(canonicalJson(item));
  }
  await sink(`]${betweenProofsAndRecords}[`);
  const record = arrayElements(sink);
  for await (const page of recordPages()) for (const item of page) await record(canonicalJson(item));
  await sink(`]${betweenArrays}[`);
  const evidence = arrayElements(sink);
  for await (const batch of evidenceStore(db).listForRunInBatches(runId, EVIDENCE_BATCH)) {
    for (const item of batch) await evidence(canonicalJson(manifestEvidence(item)));
  }
  await sink(`]${afterEvidence}`);
  return { final: skeleton.final, evidenceCount: evidence.count() };
}
