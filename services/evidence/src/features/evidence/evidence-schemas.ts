/** JSON Schemas (2020-12) of evidence: the JSON and multipart forms of a submission, and the stored item. */
import type { FromSchema } from '@platform/http';
import { scanStatusSchema, sha256Schema, sizeBytesSchema } from '@platform/files';
import { NO_NUL, YEAR_1000_TO_9999 } from '../../shared/schema-patterns';

const uuid = { type: 'string', format: 'uuid' } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;

const JSON_KINDS = ['note', 'link', 'record'] as const;
export const KINDS = [...JSON_KINDS, 'file'] as const;
export type EvidenceKind = (typeof KINDS)[number];

const commonFields = {
  title: { type: 'string', minLength: 1, maxLength: 300, pattern: NO_NUL },
  description: { type: 'string', maxLength: 10000, pattern: NO_NUL },
  collected_at: {
    ...timestamp,
    pattern: YEAR_1000_TO_9999,
    description: 'When the evidence was collected; outside the run period it is accepted and flagged `out_of_period`',
  },
  source: { type: 'string', minLength: 1, maxLength: 300, pattern: NO_NUL, description: 'Where it came from (system, person)' },
  supersedes: { ...uuid, description: 'An evidence item of the same run that this one corrects; the old one stays' },
} as const;

export const jsonEvidenceRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'title'],
  properties: {
    kind: { enum: [...JSON_KINDS] },
    ...commonFields,
    url: {
      type: 'string',
      format: 'uri',
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]',
      maxLength: 2048,
      description: 'Required for a link (absolute http or https URL), refused otherwise',
    },
    data: {
      type: 'object',
      description:
        'Required for a record, refused otherwise. Kept exactly, so an integer beyond ±(2^53 − 1) is refused (send it as a string), as is nesting deeper than 63 levels',
    },
  },
} as const;

export type JsonEvidenceRequest = FromSchema<typeof jsonEvidenceRequestSchema>;

/** The text parts that may accompany the one `file` part of a multipart submission. */
export const fileEvidenceFieldsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    kind: { const: 'file', description: 'Optional; a multipart submission is always a file' },
    ...commonFields,
  },
} as const;

export type FileEvidenceFields = FromSchema<typeof fileEvidenceFieldsSchema>;

export const multipartEvidenceRequestSchema = {
  type: 'object',
  required: ['file'],
  properties: {
    file: {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: 'PDF, PNG, JPEG, ZIP or UTF-8 text (CSV, JSON, plain), judged by its bytes',
    },
    ...fileEvidenceFieldsSchema.properties,
    title: { ...commonFields.title, description: 'Defaults to the file name' },
  },
} as const;

const evidenceProperties = {
  evidence_id: uuid,
  run_id: uuid,
  kind: { enum: [...KINDS] },
  title: { type: 'string' },
  sha256: {
    ...sha256Schema,
    description: 'SHA-256 of the file bytes, or of the RFC 8785 canonical JSON of the JSON evidence',
  },
  size_bytes: sizeBytesSchema,
  content_type: { type: 'string' },
  submitted_by: { type: 'string' },
  submitted_at: timestamp,
  out_of_period: { type: 'boolean' },
  supersedes: { type: ['string', 'null'], format: 'uuid' },
  collected_at: { type: ['string', 'null'], format: 'date-time' },
} as const;
const EVIDENCE_FIELDS = [
  'evidence_id',
  'run_id',
  'kind',
  'title',
  'sha256',
  'size_bytes',
  'content_type',
  'submitted_by',
  'submitted_at',
  'out_of_period',
  'supersedes',
  'collected_at',
] as const;

export const evidenceResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: EVIDENCE_FIELDS,
  properties: {
    ...evidenceProperties,
    scan_status: {
      ...scanStatusSchema,
      description:
        'File evidence only. Virus scan: `clean`; `infected` (quarantined: kept for investigation, a binder of the run is refused); ' +
        '`pending` (scanner unreachable; rescanned in the background, a binder of the run is refused until then); `not_scanned` (no scanner configured)',
    },
  },
} as const;

/** The contract's 201 answer; scan_status is present for file evidence only. */
export type Evidence = FromSchema<typeof evidenceResponseSchema>;

/** Why and by whom an item's bytes were destroyed; its row, hash and audit records stay. */
const redactionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason', 'redacted_by', 'redacted_at'],
  properties: {
    reason: { type: 'string' },
    redacted_by: { type: 'string' },
    redacted_at: timestamp,
  },
} as const;

export type Redaction = FromSchema<typeof redactionSchema>;

const itemProperties = {
  ...evidenceProperties,
  description: { type: ['string', 'null'] },
  url: { type: ['string', 'null'] },
  source: { type: ['string', 'null'] },
  file_name: { type: ['string', 'null'], description: 'For display only' },
  superseded_by: { type: ['string', 'null'], format: 'uuid' },
  redaction: {
    ...redactionSchema,
    description: 'Only on a redacted item: its bytes are destroyed, `superseded_by` names the redacted version that replaces it',
  },
} as const;

/** An item as a run lists it: everything stored about it, and which later item corrects it. */
export const evidenceItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...EVIDENCE_FIELDS, 'description', 'url', 'source', 'file_name', 'superseded_by'],
  properties: itemProperties,
} as const;

export type EvidenceItem = FromSchema<typeof evidenceItemSchema>;

/** The stored item with what a binder needs to reproduce its bytes. */
export type StoredEvidence = EvidenceItem & { content_json: string | null };

/** The text parts of a redaction: the one `file` part is the redacted version of the item. */
export const redactionFieldsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      pattern: NO_NUL,
      description: 'Why the original is redacted; kept with the item and named in later binders (not in the audit record or the event)',
    },
    title: { ...commonFields.title, description: "Defaults to the redacted item's title" },
    description: commonFields.description,
  },
} as const;

export type RedactionFields = FromSchema<typeof redactionFieldsSchema>;

export const multipartRedactionRequestSchema = {
  type: 'object',
  required: ['file', 'reason'],
  properties: {
    file: {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: 'The redacted version: PDF, PNG, JPEG, ZIP or UTF-8 text (CSV, JSON, plain), judged by its bytes',
    },
    ...redactionFieldsSchema.properties,
  },
} as const;

/** The superseding item, and what was redacted. */
export const redactionResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['redacted', 'evidence'],
  properties: {
    redacted: {
      type: 'object',
      additionalProperties: false,
      required: ['evidence_id', 'sha256', ...redactionSchema.required],
      properties: { evidence_id: uuid, sha256: evidenceProperties.sha256, ...redactionSchema.properties },
    },
    evidence: { ...evidenceResponseSchema, description: 'The superseding item (its `supersedes` is the redacted one)' },
  },
} as const;

export type RedactionReceipt = FromSchema<typeof redactionResponseSchema>;
