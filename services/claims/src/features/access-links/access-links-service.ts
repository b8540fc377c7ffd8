import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import type { AccessLinkRequest } from './access-links-schemas';
import { accessLinksStore } from './access-links-store';
import type { ClaimantKeys } from '../claimants';

export interface AccessLinkSettings {
  /** Requests per client address, and per claim number, in one window. */
  perAddress: number;
  perClaim: number;
  windowSeconds: number;
  /** New links sent to one claim in 24 hours, whoever asks. */
  reissuesPerDay: number;
  keys: ClaimantKeys;
}

/** An E.164 number from what a person types: `+1 (415) 555-0100`, `0014155550100` → `+14155550100`; null when it cannot be one. */
export function normaliseE164(value: string): string | null {
  const compact = value.replace(/[\s().-]/g, '').replace(/^00/, '+');
  return /^\+[1-9][0-9]{6,14}$/.test(compact) ? compact : null;
}

/** Claim numbers are issued upper case (CLM-YYYY-NNNNNN); a claimant may type them in any case. */
const normaliseClaimNumber = (value: string) => value.trim().toUpperCase();

/** Whether the email or phone of a request is the one on the claim. */
function matches(request: AccessLinkRequest, contacts: { email: string | null; phone: string | null }): 'email' | 'sms' | null {
  if ('email' in request && request.email !== undefined)
    return contacts.email !== null && contacts.email.toLowerCase() === request.email.trim().toLowerCase() ? 'email' : null;
  const phone = 'phone' in request && request.phone !== undefined ? normaliseE164(request.phone) : null;
  return phone !== null && contacts.phone !== null && normaliseE164(contacts.phone) === phone ? 'sms' : null;
}

/**
 * A lost link. `admit` (before answering) counts the request against the client address and the claim
 * number — a number, not a claim, so a refusal says nothing about whether the claim exists — and
 * refuses with 429 over either limit. `request` (after answering: its outcome never shows in the answer
 * or its timing) queues a new link on the delivery queue when the details match; the delivery worker
 * sends it (delivery/access-link-delivery.ts).
 */
export const accessLinksService = (settings: AccessLinkSettings) => (db: Knex) => {
  const store = accessLinksStore(db);
  return {
    async admit(clientAddress: string, claimNumber: string): Promise<void> {
      const limits = [
        { bucket: `access-links:address:${clientAddress}`, limit: settings.perAddress },
        { bucket: `access-links:claim:${normaliseClaimNumber(claimNumber)}`, limit: settings.perClaim },
      ];
      for (const { bucket, limit } of limits) {
        const window = await store.hit(bucket, settings.windowSeconds);
        if (window.hits > limit) throw problems.tooManyRequests(window.resetSeconds);
      }
      await store.purgeWindows(2 * settings.windowSeconds);
    },

    /** True when a link was queued. */
    async request(request: AccessLinkRequest): Promise<boolean> {
      const contacts = await store.findContacts(normaliseClaimNumber(request.claim_number), settings.keys);
      const channel = contacts ? matches(request, contacts) : null;
      if (!contacts || !channel) return false;
      if ((await store.accessLinksQueuedSince(contacts.claim_id, 24 * 3600)) >= settings.reissuesPerDay) return false;
      await store.queueAccessLink(contacts.claim_id, channel);
      return true;
    },
  };
};
