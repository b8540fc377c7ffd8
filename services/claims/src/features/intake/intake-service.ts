import { randomUUID } from 'node:crypto';
import { generateAccessToken, hashAccessToken } from '@platform/auth';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { claimStore, type RequiredDocument } from '../../shared/claim-store';
import { recordClaimChange } from '../../shared/claim-change';
import { claimantMessages, type ClaimantMessages } from '../../shared/claimant-messages';
import { claimCreated } from './intake-events';
import type { ClaimantPrivacy, SharedKey } from '../claimants';
import { deliveriesStore } from '../delivery';
import { indexClaimantName } from '../claims-list';
import { normaliseLanguageTag } from '../../shared/language-tag';
import { isCalendarDate } from '../../shared/dates';
import { addDays, dateIn, isTimeZone, promiseDueAt } from '../../shared/claim-deadlines';
import type { StatusUpdateContact } from '../../shared/status-update';
import { statusUpdatesStore } from '../status-updates';
import { idempotencyStore, requestDigest, type StoredResponse } from './idempotency';
import type { IntakeRequest, IntakeResponseBody } from './intake-schemas';
import { requiredDocumentsFor } from './required-documents';

export const INTAKE_OPERATION = 'claims.intake';

const HOUR_MS = 3600_000;
/** Service levels, measured from `received_at` (docs/claims.md). */
export const SERVICE_LEVELS = { acknowledgeWithinHours: 24, firstContactWithinHours: 48, firstUpdateWithinDays: 2 } as const;
/** The furthest-ahead time zone: a loss date is "in the future" only if it is after today there. */
const LATEST_UTC_OFFSET_HOURS = 14;

export interface IntakeSettings {
  exchange: string;
  publicBaseUrl: string;
  contact: StatusUpdateContact;
  idempotencyRetentionHours: number;
  /** The claims list's name index key (nameIndexKey). */
  nameIndexKey: SharedKey;
  privacy: ClaimantPrivacy;
}

const dateOnly = (date: Date) => date.toISOString().slice(0, 10);

/** Without a stated preference: email when the claimant gave one, otherwise SMS to the phone they gave. */
export function preferredChannelOf(request: IntakeRequest) {
  return request.preferred_channel ?? (request.claimant.email !== undefined ? 'email' : 'sms');
}

/** Checks what the schema cannot: the loss date is real and not in the future; an email or a phone; the channel has its contact; the language tag is valid. */
export function checkIntakeFacts(request: IntakeRequest, now: Date): { language: string; timeZone: string | null } {
  const errors: { pointer: string; message: string }[] = [];
  const latestToday = dateOnly(new Date(now.getTime() + LATEST_UTC_OFFSET_HOURS * HOUR_MS));
  if (!isCalendarDate(request.loss.date)) errors.push({ pointer: '/loss/date', message: 'must be a calendar date (YYYY-MM-DD)' });
  else if (request.loss.date > latestToday) errors.push({ pointer: '/loss/date', message: 'must not be in the future' });
  const channel = preferredChannelOf(request);
  if (request.claimant.email === undefined && request.claimant.phone === undefined)
    errors.push({ pointer: '/claimant', message: 'needs an email or a phone' });
  if (channel === 'email' && request.claimant.email === undefined)
    errors.push({ pointer: '/claimant/email', message: 'is required for the email channel' });
  if (channel === 'sms' && request.claimant.phone === undefined)
    errors.push({ pointer: '/claimant/phone', message: 'is required for the sms channel' });
  const language = normaliseLanguageTag(request.language ?? 'en');
  if (!language) errors.push({ pointer: '/language', message: 'must be a BCP 47 language tag' });
  if (request.time_zone !== undefined && !isTimeZone(request.time_zone))
    errors.push({ pointer: '/time_zone', message: 'must be an IANA time zone name' });
  if (errors.length > 0)
    throw problems.badRequest(`Request body: ${errors[0].pointer.slice(1).replace(/\//g, '.')} ${errors[0].message}`, errors);
  return { language: language!, timeZone: request.time_zone ?? null };
}

/** The acknowledgement's text, from the claimant message catalogue in the claim's language (or English). */
function acknowledgement(
  claimId: string,
  claimNumber: string,
  documents: RequiredDocument[],
  firstContactDue: Date,
  expectedNextUpdateBy: string,
  settings: IntakeSettings,
  messages: ClaimantMessages,
) {
  const outstanding = documents
    .filter((document) => !document.received)
    .map((document) => messages.format('documentType', { type: document.type }));
  // The claim's portal page. The stored update never holds the access token (only its hash is kept): the app that
  // reported the loss opens `portal_url#token={access_token}`, and a claimant who lost it asks for a new link there.
  const portal = `${settings.publicBaseUrl.replace(/\/+$/, '')}/portal/claims/${claimId}`;
  return {
    what_happened: messages.format('acknowledgementWhatHappened', { claimNumber }),
    what_happens_next: messages.format('acknowledgementWhatHappensNext', { firstContactDue }),
    what_we_need_from_you:
      outstanding.length > 0 ? messages.format('acknowledgementWhatWeNeed', { documents: outstanding.join(', ') }) : null,
    expected_next_update_by: expectedNextUpdateBy,
    cta: outstanding.length > 0 ? { label: messages.format('acknowledgementCtaLabel'), url: `${portal}#upload` } : null,
    contact: settings.contact,
    portal_url: portal,
  };
}

/**
 * First notice of loss. `submit` runs on one transaction (use `transactional`): idempotency key, claim
 * number, the claim with its checklist and service-level dates, the acknowledgement (queued for delivery
 * on the preferred channel), the audit entry and the `claim.created` event commit together or not at all.
 */
export function intakeService(settings: IntakeSettings) {
  return (db: Knex) => ({
    async submit(request: IntakeRequest, idempotencyKey: string | undefined): Promise<StoredResponse & { replayed: boolean }> {
      const now = new Date();
      const { language, timeZone } = checkIntakeFacts(request, now);
      if (idempotencyKey !== undefined) {
        const claim = await idempotencyStore(db).claimKey(
          INTAKE_OPERATION,
          idempotencyKey,
          requestDigest(request),
          settings.idempotencyRetentionHours,
        );
        if (claim.replay) return { ...claim.replay, replayed: true };
      }

      const claimId = randomUUID();
      const accessToken = generateAccessToken();
      const requiredDocuments = requiredDocumentsFor(request.loss.type, request.injuries ?? null);
      const firstContactDue = new Date(now.getTime() + SERVICE_LEVELS.firstContactWithinHours * HOUR_MS);
      const expectedNextUpdateBy = addDays(dateIn(timeZone, now), SERVICE_LEVELS.firstUpdateWithinDays);
      const preferredChannel = preferredChannelOf(request);
      const claimant = {
        name: request.claimant.name.trim(),
        email: request.claimant.email?.toLowerCase() ?? null,
        phone: request.claimant.phone ?? null,
      };
      const { claimantId, key } = await settings.privacy.claimantOf(db, claimant);
      const nameIndexKey = await settings.nameIndexKey.on(db);
      // sealed now, before the claim number: only the acknowledgement's texts below need it
      const claimWrite = claimStore(db).prepareInsert(
        {
          id: claimId,
          policy_number: request.policy_number.trim(),
          claimant_id: claimantId,
          claimant,
          loss: {
            date: request.loss.date,
            type: request.loss.type,
            description: request.loss.description.trim(),
            location: request.loss.location ?? null,
          },
          injuries: request.injuries ?? null,
          police_report_number: request.police_report_number?.trim() ?? null,
          estimated_amount: request.estimated_amount ?? null,
          preferred_channel: preferredChannel,
          language,
          time_zone: timeZone,
          access_token_hash: hashAccessToken(accessToken),
          required_documents: requiredDocuments,
          received_at: now,
          acknowledge_by: new Date(now.getTime() + SERVICE_LEVELS.acknowledgeWithinHours * HOUR_MS),
          acknowledged_at: now,
          first_contact_due: firstContactDue,
          next_update_due: promiseDueAt(expectedNextUpdateBy, timeZone),
        },
        key,
      );
      // Last of the reads: the counter's row stays locked until commit, so every intake waits here for the one
      // before it; the claimant's matching and key (a new key made and wrapped) and the claim's sealing are done
      // before, outside that wait.
      const claimNumber = await claimStore(db).allocateClaimNumber(now.getUTCFullYear());

      // `language` is the catalogue's language the text is in; a claim language without one falls back to English and says so.
      const messages = claimantMessages(language, timeZone);
      const acknowledged = statusUpdatesStore(db, key).prepare({
        claim_id: claimId,
        channel: preferredChannel,
        stage: 'intake',
        ...acknowledgement(claimId, claimNumber, requiredDocuments, firstContactDue, expectedNextUpdateBy, settings, messages),
        language: messages.language,
        language_fallback_from: messages.fallbackFrom,
        created_by: 'system:intake',
      });

      const body: IntakeResponseBody = {
        claim_id: claimId,
        claim_number: claimNumber,
        access_token: accessToken,
        stage: 'intake',
        received_at: now.toISOString(),
        required_documents: requiredDocuments,
        status: acknowledged.update,
      };
      const response: StoredResponse = { status: 201, location: `/api/claims/public/claims/${claimId}/status`, body };
      // One statement after the claim number: the claim, its acknowledgement (queued for delivery on the preferred
      // channel), the stored answer to the Idempotency-Key, the audit entry and the event.
      const writes = [claimWrite(claimNumber), acknowledged.write, deliveriesStore(db).queue(acknowledged)];
      writes.push(indexClaimantName(db, claimId, request.claimant.name, nameIndexKey));
      if (idempotencyKey !== undefined)
        writes.push(idempotencyStore(db).storeResponse(INTAKE_OPERATION, idempotencyKey, response, claimId));
      await recordClaimChange(
        db,
        settings.exchange,
        {
          claimId,
          event: claimCreated,
          actor: 'claimant',
          reason: 'first notice of loss',
          data: {
            claim_number: claimNumber,
            stage: 'intake',
            loss_type: request.loss.type,
            loss_date: request.loss.date,
            injuries: request.injuries ?? null,
            police_report: request.police_report_number !== undefined,
            estimated_amount: request.estimated_amount ?? null,
            preferred_channel: preferredChannel,
            language,
            required_documents: requiredDocuments.map((document) => document.type),
            acknowledgement_update_id: acknowledged.update_id,
            received_at: now.toISOString(),
          },
          timeline: {
            data: {
              claim_number: claimNumber,
              loss_type: request.loss.type,
              acknowledgement_update_id: acknowledged.update_id,
              idempotency_key: idempotencyKey !== undefined,
            },
          },
        },
        writes,
      );
      return { ...response, replayed: false };
    },
  });
}
