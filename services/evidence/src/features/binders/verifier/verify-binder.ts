import { createHash } from 'node:crypto';
import {
  hashLeaf,
  parseCheckpoint,
  parseNote,
  parseVerifierKey,
  verifyConsistency,
  verifyInclusion,
  verifyNote,
  type Checkpoint,
} from '@platform/merkle';
// The module, not the package: the rest of @platform/witness needs a database.
import { findCosignature, parseWitnessVerifierKey } from '@platform/witness/src/cosignature';
import type { AuditConsistency, AuditRecordProof } from './binder-format';

/**
 * Checks a binder's files offline: SHA256SUMS and the manifest, each audit record against its canonical
 * bytes and its inclusion proof, the checkpoint note's signatures by the pinned keys, and the consistency
 * proof from the previous binder's checkpoint. Node.js built-ins, @platform/merkle and the witness's
 * cosignature module only: it is bundled into the binder as verify.mjs.
 */

export interface PinnedKeys {
  /** The service's C2SP verifier key (`<origin>+<hash>+<key>`). */
  service?: string;
  /** Witness verifier keys (cosignature/v1); each must have cosigned the checkpoint. */
  witnesses: string[];
}

export interface Check {
  ok: boolean;
  message: string;
}

export interface BinderReport {
  ok: boolean;
  checks: Check[];
}

interface ManifestAudit {
  records: ({ seq: number; hash: string; prev_hash: string } & Record<string, unknown>)[];
  checkpoint: { seq: number; note?: string | null } | null;
  proofs?: AuditRecordProof[];
  consistency?: AuditConsistency | null;
}

interface ManifestView {
  format?: string;
  evidence?: { path: string; sha256: string; redaction?: { reason: string } }[];
  audit?: ManifestAudit;
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const hashes = (values: string[]) => values.map((value) => Buffer.from(value, 'base64'));

/** JSON text with object keys sorted: equal for equal values, whatever their key order. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The SHA256SUMS lines as name → hash; undefined when a line is malformed. */
function parseSums(text: string): Map<string, string> | undefined {
  const sums = new Map<string, string>();
  for (const line of text.split('\n').filter(Boolean)) {
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!match) return undefined;
    sums.set(match[2], match[1]);
  }
  return sums;
}

/** The checkpoint a note carries, when signed by the pinned key (named as the log's origin). */
function openNote(note: string, verifierKey: string): Checkpoint | undefined {
  const key = parseVerifierKey(verifierKey);
  const text = key && verifyNote(note, key.keyName, key.publicKey);
  const checkpoint = text === undefined ? undefined : parseCheckpoint(text);
  return checkpoint && key && checkpoint.origin === key.keyName ? checkpoint : undefined;
}

export function verifyBinder(files: Map<string, Buffer>, keys: PinnedKeys): BinderReport {
  const checks: Check[] = [];
  const pass = (message: string) => checks.push({ ok: true, message });
  const fail = (message: string) => checks.push({ ok: false, message });
  const report = () => ({ ok: checks.every((check) => check.ok), checks });

  const sumsFile = files.get('SHA256SUMS');
  const sums = sumsFile && parseSums(sumsFile.toString('utf8'));
  if (!sums) fail('SHA256SUMS is missing or malformed');
  else {
    const bad = [...sums].filter(([name, hash]) => !files.has(name) || sha256(files.get(name)!) !== hash).map(([name]) => name);
    const unlisted = [...files.keys()].filter((name) => name !== 'SHA256SUMS' && !sums.has(name));
    if (bad.length > 0) fail(`SHA256SUMS: ${bad.length} file(s) missing or changed: ${bad.join(', ')}`);
    if (unlisted.length > 0) fail(`SHA256SUMS: file(s) not listed: ${unlisted.join(', ')}`);
    if (bad.length === 0 && unlisted.length === 0) pass(`SHA256SUMS: all ${sums.size} files match`);
  }

  let manifest: ManifestView;
  try {
    manifest = JSON.parse(files.get('manifest.json')?.toString('utf8') ?? 'null') as ManifestView;
    if (manifest === null || typeof manifest !== 'object') throw new Error('no manifest.json');
  } catch (error) {
    fail(`manifest.json cannot be read: ${(error as Error).message}`);
    return report();
  }

  // A redacted item's bytes were destroyed: its hash stays in the manifest and in its audit record, its file is absent.
  const evidence = (manifest.evidence ?? []).filter((item) => !item.redaction);
  const redacted = (manifest.evidence ?? []).length - evidence.length;
  const badEvidence = evidence
    .filter((item) => !files.has(item.path) || sha256(files.get(item.path)!) !== item.sha256)
    .map((item) => item.path);
  if (badEvidence.length > 0) fail(`evidence: ${badEvidence.length} file(s) missing or not the manifest's hash: ${badEvidence.join(', ')}`);
  else pass(`evidence: all ${evidence.length} items match the manifest's hashes${redacted > 0 ? ` (${redacted} redacted, no file)` : ''}`);

  const audit = manifest.audit;
  if (!audit) {
    fail('manifest.json has no audit section');
    return report();
  }
  const lines = (files.get('audit.jsonl')?.toString('utf8') ?? '').split('\n').filter(Boolean);
  const sameAsManifest =
    lines.length === audit.records.length && lines.every((line, i) => sortedJson(JSON.parse(line)) === sortedJson(audit.records[i]));
  if (sameAsManifest) pass(`audit.jsonl: the manifest's ${audit.records.length} audit records`);
  else fail('audit.jsonl: not the audit records of the manifest');

  const checkpoint = verifyCheckpoint(audit, keys, pass, fail);
  if (checkpoint) verifyRecords(audit, checkpoint, pass, fail);
  else if (audit.records.length > 0)
    fail(`audit records: ${audit.records.length} record(s) without a verified checkpoint to prove them against`);
  if (checkpoint && audit.consistency) verifyPrevious(audit.consistency, checkpoint, keys, pass, fail);
  return report();
}

function verifyCheckpoint(
  audit: ManifestAudit,
  keys: PinnedKeys,
  pass: (m: string) => void,
  fail: (m: string) => void,
): Checkpoint | undefined {
  const note = audit.checkpoint?.note;
  if (!note) {
    if (audit.records.length > 0) fail('checkpoint: the binder carries no signed tree head (checkpoint note)');
    return undefined;
  }
  if (!keys.service) {
    fail('checkpoint: no service key pinned (--service-key or BINDER_SERVICE_KEY): a signature is only worth the key you trust');
    return undefined;
  }
  const checkpoint = openNote(note, keys.service);
  if (!checkpoint) {
    fail('checkpoint: the note is not signed by the pinned service key');
    return undefined;
  }
  pass(`checkpoint: tree of ${checkpoint.size} records signed by ${checkpoint.origin}`);
  const body = parseNote(note)!.text;
  for (const verifierKey of keys.witnesses) {
    const witness = parseWitnessVerifierKey(verifierKey);
    const cosignature = witness && findCosignature(note, body, witness.witnessName, witness.publicKey);
    if (!witness) fail(`checkpoint: the witness key is not a cosignature/v1 verifier key: ${verifierKey}`);
    else if (!cosignature) fail(`checkpoint: not cosigned by the pinned witness ${witness.witnessName}`);
    else pass(`checkpoint: cosigned by witness ${witness.witnessName} at ${new Date(cosignature.time * 1000).toISOString()}`);
  }
  return checkpoint;
}

function verifyRecords(audit: ManifestAudit, checkpoint: Checkpoint, pass: (m: string) => void, fail: (m: string) => void): void {
  const proofs = new Map((audit.proofs ?? []).map((proof) => [proof.seq, proof]));
  const failures: string[] = [];
  for (const record of audit.records) {
    const proof = proofs.get(record.seq);
    if (!proof) {
      failures.push(`record ${record.seq}: no inclusion proof`);
      continue;
    }
    const leaf = Buffer.from(proof.leaf, 'utf8');
    const { hash, ...fields } = record;
    let leafFields: unknown;
    try {
      leafFields = JSON.parse(proof.leaf);
    } catch {
      leafFields = undefined;
    }
    if (sortedJson(leafFields) !== sortedJson(fields))
      failures.push(`record ${record.seq}: its canonical bytes say something else than the record`);
    else if (createHash('sha256').update(record.prev_hash, 'utf8').update(leaf).digest('hex') !== hash)
      failures.push(`record ${record.seq}: hash is not SHA-256(prev_hash ‖ canonical bytes)`);
    else if (!verifyInclusion(record.seq - 1, checkpoint.size, hashLeaf(leaf), hashes(proof.inclusion_proof), checkpoint.rootHash)) {
      failures.push(`record ${record.seq}: inclusion proof does not lead to the checkpoint's root`);
    }
  }
  for (const failure of failures) fail(`audit ${failure}`);
  if (failures.length === 0) pass(`audit records: all ${audit.records.length} proven included in the signed tree of ${checkpoint.size}`);
}

function verifyPrevious(
  consistency: AuditConsistency,
  checkpoint: Checkpoint,
  keys: PinnedKeys,
  pass: (m: string) => void,
  fail: (m: string) => void,
): void {
  const previous = openNote(consistency.note, keys.service!);
  if (!previous) fail("consistency: the previous binder's checkpoint is not signed by the pinned service key");
  else if (verifyConsistency(previous.size, checkpoint.size, hashes(consistency.proof), previous.rootHash, checkpoint.rootHash)) {
    pass(
      `consistency: the log of ${previous.size} records in the previous binder's checkpoint is a prefix of this one's ${checkpoint.size}`,
    );
  } else fail(`consistency: the previous binder's tree of ${previous.size} records and this one of ${checkpoint.size} are not one history`);
}
