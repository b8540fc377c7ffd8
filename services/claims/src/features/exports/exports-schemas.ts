import type { FromSchema } from '@platform/http';

export const EXPORT_STATUSES = ['queued', 'building', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

const progressSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['done', 'total'],
  description: 'Parts of the archive written (a claim’s records, or one file), of `total` (null until the build has counted them)',
  properties: { done: { type: 'integer', minimum: 0 }, total: { type: ['integer', 'null'], minimum: 0 } },
} as const;

const archiveSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['sha256', 'size_bytes'],
  description: 'The built zip, once ready',
  properties: { sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' }, size_bytes: { type: 'integer', minimum: 0 } },
} as const;

/** An export as a privacy officer sees it. */
export const claimantExportSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'export_id',
    'claimant_id',
    'status',
    'progress',
    'requested_by',
    'include_internal_notes',
    'requested_at',
    'completed_at',
    'archive',
    'failure',
    'links',
  ],
  properties: {
    export_id: { type: 'string', format: 'uuid' },
    claimant_id: { type: 'string', format: 'uuid' },
    status: { enum: EXPORT_STATUSES },
    progress: progressSchema,
    requested_by: { type: 'string', description: 'The officer’s `sub`, or `claimant` for the claimant’s own request from the portal' },
    include_internal_notes: {
      type: 'boolean',
      description: 'Whether notes’ texts are in the archive (EXPORT_INCLUDE_INTERNAL_NOTES when requested)',
    },
    requested_at: { type: 'string', format: 'date-time' },
    completed_at: { type: ['string', 'null'], format: 'date-time' },
    archive: archiveSchema,
    failure: { type: ['string', 'null'], description: 'Why the build failed, for a failed export' },
    links: {
      type: 'object',
      additionalProperties: false,
      required: ['self', 'archive'],
      properties: {
        self: { type: 'string' },
        archive: { type: ['string', 'null'], description: 'Where the zip is downloaded, once ready' },
      },
    },
  },
} as const;
export type ClaimantExport = FromSchema<typeof claimantExportSchema>;

/** A claimant's own export, as the portal sees it. */
export const ownExportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['export_id', 'claim_id', 'status', 'progress', 'requested_at', 'completed_at', 'delivery'],
  properties: {
    export_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid', description: 'The claim it was asked from' },
    status: { enum: EXPORT_STATUSES },
    progress: progressSchema,
    requested_at: { type: 'string', format: 'date-time' },
    completed_at: { type: ['string', 'null'], format: 'date-time' },
    delivery: {
      enum: ['email', 'sms', 'portal'],
      description:
        'How the download link reaches the claimant: a one-time link sent to the email or phone on record once ready, or ' +
        '(portal channel) a one-time download token the portal asks for with POST …/download-token',
    },
  },
} as const;
export type OwnExport = FromSchema<typeof ownExportSchema>;

export const downloadTokenSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['download_token', 'expires_at', 'archive'],
  properties: {
    download_token: {
      type: 'string',
      description: 'Send it as `Authorization: Bearer <download_token>` to `archive`; it opens one download',
    },
    expires_at: { type: 'string', format: 'date-time' },
    archive: { type: 'string', description: 'Where the zip is downloaded' },
  },
} as const;
export type DownloadToken = FromSchema<typeof downloadTokenSchema>;

/** One entry of the archive's manifest.json. */
export interface ManifestEntry {
  path: string;
  sha256: string;
  size_bytes: number;
}
