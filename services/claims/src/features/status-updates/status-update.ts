import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import { CHANNELS, CLAIM_STAGES, type Channel, type ClaimStage } from '../../shared/claim-vocabulary';

/**
 * The StatusUpdate of the interface document: what a claimant is told, on which channel. Shared by the
 * intake acknowledgement and POST /api/claims/claims/{id}/status-updates.
 */
export interface StatusUpdateCta {
  label: string;
  url: string;
}

export interface StatusUpdateContact {
  name?: string;
  phone: string;
  email: string;
}

export interface StatusUpdate {
  claim_id: string;
  channel: Channel;
  stage: ClaimStage;
  what_happened: string;
  what_happens_next: string;
  what_we_need_from_you: string | null;
  expected_next_update_by: string | null;
  cta: StatusUpdateCta | null;
  contact: StatusUpdateContact | null;
  portal_url: string | null;
  language: string | null;
  adequacy_score: number;
  adequacy_missing: string[];
}

/** What a caller sends: everything but the computed adequacy fields; `claim_id` may be omitted. */
export interface StatusUpdateRequest {
  claim_id?: string;
  channel: Channel;
  stage: ClaimStage;
  what_happened: string;
  what_happens_next: string;
  what_we_need_from_you?: string | null;
  expected_next_update_by?: string | null;
  cta?: StatusUpdateCta | null;
  contact?: StatusUpdateContact | null;
  portal_url?: string | null;
  language?: string | null;
}

/** A BCP 47 language tag (shape only; `normaliseLanguageTag` canonicalises and rejects invalid tags). */
export const LANGUAGE_TAG_PATTERN = '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$';
const E164_PATTERN = '^\\+[1-9][0-9]{6,14}$';
/** Text with something besides white space, and no NUL character (PostgreSQL text cannot hold one). */
export const NON_BLANK_TEXT_PATTERN = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';
const HTTPS_URL_PATTERN = '^https://[^\\s]+$';

const ctaRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['label', 'url'],
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN },
    url: { type: 'string', format: 'uri', pattern: HTTPS_URL_PATTERN, maxLength: 2000 },
  },
} as const;

const contactRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['phone', 'email'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN },
    phone: { type: 'string', pattern: E164_PATTERN },
    email: { type: 'string', format: 'email', maxLength: 320 },
  },
} as const;

/**
 * Request body of POST /api/claims/claims/{id}/status-updates. `adequacy_score` and `adequacy_missing`
 * are not accepted (additionalProperties: false makes sending them a 400). Whether
 * `expected_next_update_by` is today or later is checked by `isTodayOrLater`, not by the schema.
 */
export const statusUpdateRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['channel', 'stage', 'what_happened', 'what_happens_next'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    channel: { enum: [...CHANNELS] },
    stage: { enum: [...CLAIM_STAGES] },
    what_happened: { type: 'string', minLength: 1, maxLength: 5000, pattern: NON_BLANK_TEXT_PATTERN },
    what_happens_next: { type: 'string', minLength: 1, maxLength: 5000, pattern: NON_BLANK_TEXT_PATTERN },
    what_we_need_from_you: { type: ['string', 'null'], minLength: 1, maxLength: 5000, pattern: NON_BLANK_TEXT_PATTERN },
    expected_next_update_by: { type: ['string', 'null'], format: 'date' },
    cta: { oneOf: [{ type: 'null' }, ctaRequestSchema] },
    contact: { oneOf: [{ type: 'null' }, contactRequestSchema] },
    portal_url: { type: ['string', 'null'], format: 'uri', pattern: HTTPS_URL_PATTERN, maxLength: 2000 },
    language: { type: ['string', 'null'], pattern: LANGUAGE_TAG_PATTERN, maxLength: 35 },
  },
} as const;

/** The stored StatusUpdate as it is returned: all thirteen fields, and no others. */
export const statusUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id', 'channel', 'stage', 'what_happened', 'what_happens_next', 'what_we_need_from_you', 'expected_next_update_by',
    'cta', 'contact', 'portal_url', 'language', 'adequacy_score', 'adequacy_missing',
  ],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    channel: { enum: [...CHANNELS] },
    stage: { enum: [...CLAIM_STAGES] },
    what_happened: { type: 'string' },
    what_happens_next: { type: 'string' },
    what_we_need_from_you: { type: ['string', 'null'] },
    expected_next_update_by: { type: ['string', 'null'], format: 'date' },
    cta: {
      oneOf: [
        { type: 'null' },
        { type: 'object', additionalProperties: false, required: ['label', 'url'], properties: { label: { type: 'string' }, url: { type: 'string', format: 'uri' } } },
      ],
    },
    contact: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['phone', 'email'],
          properties: { name: { type: 'string' }, phone: { type: 'string' }, email: { type: 'string' } },
        },
      ],
    },
    portal_url: { type: ['string', 'null'], format: 'uri' },
    language: { type: ['string', 'null'] },
    adequacy_score: { type: 'number', minimum: 0, maximum: 1 },
    adequacy_missing: { type: 'array', items: { type: 'string' } },
  },
} as const;

/**
 * Adequacy weights: what a customer needs from an update, and how much each part counts.
 *
 * | field                     | weight | applies                                   |
 * |---------------------------|--------|-------------------------------------------|
 * | `expected_next_update_by` | 3      | always                                    |
 * | `cta`                     | 2      | whenever `what_we_need_from_you` is not null |
 * | `contact`                 | 2      | always                                    |
 * | `portal_url`              | 1      | on the `portal` channel                   |
 * | `language`                | 1      | always                                    |
 *
 * `adequacy_score` = (sum of the weights of the applicable fields present) / (sum of the weights of the
 * applicable fields), rounded to two decimals, so it is always in [0, 1]. `adequacy_missing` names the
 * applicable fields that are absent (null or not sent), in the order of this table.
 * Mirrored in docs/claims.md.
 */
export const ADEQUACY_WEIGHTS: readonly { field: keyof StatusUpdate; weight: number; applies: (update: AdequacyInput) => boolean }[] = [
  { field: 'expected_next_update_by', weight: 3, applies: () => true },
  { field: 'cta', weight: 2, applies: (update) => update.what_we_need_from_you != null },
  { field: 'contact', weight: 2, applies: () => true },
  { field: 'portal_url', weight: 1, applies: (update) => update.channel === 'portal' },
  { field: 'language', weight: 1, applies: () => true },
];

export type AdequacyInput = Omit<StatusUpdateRequest, 'stage' | 'what_happened' | 'what_happens_next'> & { channel: Channel };

export function computeAdequacy(update: AdequacyInput): { adequacy_score: number; adequacy_missing: string[] } {
  let applicable = 0;
  let given = 0;
  const missing: string[] = [];
  for (const { field, weight, applies } of ADEQUACY_WEIGHTS) {
    if (!applies(update)) continue;
    applicable += weight;
    if (update[field as keyof AdequacyInput] != null) given += weight;
    else missing.push(field);
  }
  const score = applicable === 0 ? 1 : Math.round((given / applicable) * 100) / 100;
  return { adequacy_score: score, adequacy_missing: missing };
}

/** Canonical BCP 47 form (`en-us` → `en-US`), or undefined when the tag is not well-formed. */
export function normaliseLanguageTag(tag: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical;
  } catch {
    return undefined;
  }
}

/** True when a calendar date (YYYY-MM-DD) is a real date (2026-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today's calendar date in UTC, YYYY-MM-DD. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** True when a real calendar date is today (UTC) or later. */
export function isTodayOrLater(date: string, now = new Date()): boolean {
  return isCalendarDate(date) && date >= todayUtc(now);
}

/** The moment a promised `expected_next_update_by` date has passed: the start of the next UTC day. */
export function nextUpdateDueAt(expectedNextUpdateBy: string | null): Date | null {
  if (!expectedNextUpdateBy) return null;
  const due = new Date(`${expectedNextUpdateBy}T00:00:00Z`);
  due.setUTCDate(due.getUTCDate() + 1);
  return due;
}

export interface NewStatusUpdate extends Omit<StatusUpdate, 'adequacy_score' | 'adequacy_missing'> {
  created_by: string;
}

export interface StoredStatusUpdate {
  update_id: string;
  created_at: string;
  created_by: string;
  update: StatusUpdate;
}

interface StatusUpdateRow {
  update_id: string;
  claim_id: string;
  channel: Channel;
  stage: ClaimStage;
  what_happened: string;
  what_happens_next: string;
  what_we_need_from_you: string | null;
  expected_next_update_by: string | Date | null;
  cta: StatusUpdateCta | null;
  contact: StatusUpdateContact | null;
  portal_url: string | null;
  language: string | null;
  adequacy_score: string | number;
  adequacy_missing: string[];
  created_at: Date | string;
  created_by: string;
}

function asDateString(value: string | Date | null): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  // a `date` column read by node-postgres is a local-midnight Date
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** The thirteen fields of a stored row, and no others. */
export function toStatusUpdate(row: StatusUpdateRow): StatusUpdate {
  return {
    claim_id: row.claim_id,
    channel: row.channel,
    stage: row.stage,
    what_happened: row.what_happened,
    what_happens_next: row.what_happens_next,
    what_we_need_from_you: row.what_we_need_from_you,
    expected_next_update_by: asDateString(row.expected_next_update_by),
    cta: row.cta,
    contact: row.contact,
    portal_url: row.portal_url,
    language: row.language,
    adequacy_score: Number(row.adequacy_score),
    adequacy_missing: row.adequacy_missing,
  };
}

function toStored(row: StatusUpdateRow): StoredStatusUpdate {
  return {
    update_id: row.update_id,
    created_at: new Date(row.created_at).toISOString(),
    created_by: row.created_by,
    update: toStatusUpdate(row),
  };
}

const SELECT_COLUMNS = `update_id, claim_id, channel, stage, what_happened, what_happens_next, what_we_need_from_you,
  to_char(expected_next_update_by, 'YYYY-MM-DD') AS expected_next_update_by, cta, contact, portal_url, language,
  adequacy_score, adequacy_missing, created_at, created_by`;

/**
 * Stores a status update with its adequacy computed here (the one place it is computed). Call it on the
 * transaction of the change it belongs to. Returns the stored update.
 */
export async function insertStatusUpdate(db: Knex, input: NewStatusUpdate): Promise<StoredStatusUpdate> {
  const adequacy = computeAdequacy(input);
  const [row] = await db('status_updates')
    .insert({
      update_id: randomUUID(),
      claim_id: input.claim_id,
      channel: input.channel,
      stage: input.stage,
      what_happened: input.what_happened,
      what_happens_next: input.what_happens_next,
      what_we_need_from_you: input.what_we_need_from_you,
      expected_next_update_by: input.expected_next_update_by,
      cta: input.cta === null ? null : JSON.stringify(input.cta),
      contact: input.contact === null ? null : JSON.stringify(input.contact),
      portal_url: input.portal_url,
      language: input.language,
      adequacy_score: adequacy.adequacy_score,
      adequacy_missing: JSON.stringify(adequacy.adequacy_missing),
      created_by: input.created_by,
    })
    .returning('*');
  return toStored(row as StatusUpdateRow);
}

/** A claim's status updates, oldest first. */
export async function listStatusUpdates(db: Knex, claimId: string): Promise<StoredStatusUpdate[]> {
  const rows = await db('status_updates').select(db.raw(SELECT_COLUMNS)).where({ claim_id: claimId }).orderBy([{ column: 'created_at' }, { column: 'update_id' }]);
  return (rows as StatusUpdateRow[]).map(toStored);
}

/** The newest status update of a claim, or null. */
export async function latestStatusUpdate(db: Knex, claimId: string): Promise<StoredStatusUpdate | null> {
  const row = await db('status_updates')
    .select(db.raw(SELECT_COLUMNS))
    .where({ claim_id: claimId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'update_id', order: 'desc' }])
    .first();
  return row ? toStored(row as StatusUpdateRow) : null;
}
