import { generateAccessToken, hashAccessToken } from '@platform/auth';
import type { Knex } from '@platform/db';
import { claimStore } from '../../shared/claim-store';
import { claimantMessages } from '../../shared/claimant-messages';
import type { SendMessage, SendOutcome } from './delivery-channels';
import { accessLinksStore } from '../access-links';

/** The portal page of a claim; the token rides in the fragment, which browsers never send to a server or put in logs. */
export function accessLinkUrl(publicBaseUrl: string, claimId: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/portal/claims/${claimId}#token=${token}`;
}

/**
 * Sends a queued access link (for the delivery worker), in the claim's language: a fresh token replaces
 * the stored hash, with a timeline entry, on a transaction that commits only once the provider took the
 * message — so a failed send leaves the earlier token working, and a sent one ends it.
 */
export async function sendAccessLink(
  db: Knex,
  publicBaseUrl: string,
  delivery: { delivery_id: string; claim_id: string; channel: 'email' | 'sms'; /** opened by leaseDue */ to: string | null },
  send: SendMessage,
): Promise<SendOutcome | { status: 'failed'; lastError: string }> {
  return db.transaction(async (trx) => {
    const claim = await claimStore(trx).find(delivery.claim_id, { forUpdate: true });
    const { to } = delivery;
    if (!claim || !to)
      return {
        status: 'failed' as const,
        lastError: `The claim has no ${delivery.channel === 'email' ? 'email address' : 'phone number'}`,
      };
    const token = generateAccessToken();
    await accessLinksStore(trx).replaceTokenHash(claim.claim_id, hashAccessToken(token));
    await claimStore(trx).appendAudit({
      claim_id: claim.claim_id,
      action: 'access_link_sent',
      actor: 'system:delivery',
      reason: 'The claimant asked for a new link; earlier links stop working',
      data: { delivery_id: delivery.delivery_id, channel: delivery.channel },
    });
    const messages = claimantMessages(claim.language);
    return send({
      channel: delivery.channel,
      to,
      claimNumber: claim.claim_number,
      updateId: delivery.delivery_id,
      carriesAccessLink: true,
      subject: messages.format('accessLinkSubject', { claimNumber: claim.claim_number }),
      text: messages.format('accessLinkText', {
        claimNumber: claim.claim_number,
        link: accessLinkUrl(publicBaseUrl, claim.claim_id, token),
      }),
    });
  });
}
