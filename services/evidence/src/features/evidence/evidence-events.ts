import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { scanStatusSchema, sha256Schema, sizeBytesSchema } from '@platform/files';
import { KINDS } from './evidence-schemas';

const uuid = { type: 'string', format: 'uuid' } as const;
const scanSignature = { type: ['string', 'null'], description: 'What the virus scanner found in an infected file' } as const;

/** `data` of `evidence.evidence_added`; `scan_status` and `scan_signature` only for a file. */
export const evidenceAddedData = {
  $id: eventSchemaId('evidence.evidence_added', 1),
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'evidence_id', 'kind', 'sha256', 'size_bytes', 'content_type', 'supersedes', 'out_of_period'],
  properties: {
    run_id: uuid,
    evidence_id: uuid,
    kind: { enum: [...KINDS] },
    sha256: { ...sha256Schema, description: 'Of the file bytes, or of the RFC 8785 canonical JSON of JSON evidence' },
    size_bytes: sizeBytesSchema,
    content_type: { type: 'string' },
    supersedes: { type: ['string', 'null'], format: 'uuid' },
    out_of_period: { type: 'boolean' },
    scan_status: scanStatusSchema,
    scan_signature: scanSignature,
  },
} as const;

/** `data` of `evidence.file_scanned`: the virus scan of a file stored `pending` has decided. */
export const fileScannedData = {
  $id: eventSchemaId('evidence.file_scanned', 1),
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'evidence_id', 'sha256', 'scan_status', 'scan_signature'],
  properties: { run_id: uuid, evidence_id: uuid, sha256: sha256Schema, scan_status: scanStatusSchema, scan_signature: scanSignature },
} as const;

export const evidenceAdded = eventKind<FromSchema<typeof evidenceAddedData>>({
  type: 'evidence.evidence_added',
  summary: 'Evidence (a note, link, record or file) was added to an open run',
  schema: evidenceAddedData,
});

export const fileScanned = eventKind<FromSchema<typeof fileScannedData>>({
  type: 'evidence.file_scanned',
  summary: 'A pending evidence file was scanned for viruses once the scanner was back',
  schema: fileScannedData,
});

/** `data` of `evidence.evidence_redacted`: identifiers and the hash only (the reason is free text and stays with the item). */
export const evidenceRedactedData = {
  $id: eventSchemaId('evidence.evidence_redacted', 1),
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'evidence_id', 'sha256', 'size_bytes', 'superseded_by'],
  properties: {
    run_id: uuid,
    evidence_id: { ...uuid, description: 'The redacted item: its row and hash stay, its bytes are destroyed' },
    sha256: { ...sha256Schema, description: 'Of the destroyed bytes' },
    size_bytes: sizeBytesSchema,
    superseded_by: { ...uuid, description: 'The redacted version that supersedes it' },
  },
} as const;

export const evidenceRedacted = eventKind<FromSchema<typeof evidenceRedactedData>>({
  type: 'evidence.evidence_redacted',
  summary: "An evidence file was redacted: a superseding item replaces it and the original's bytes are destroyed",
  schema: evidenceRedactedData,
});
