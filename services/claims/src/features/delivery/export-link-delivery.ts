import type { Knex } from '@platform/db';
import { claimStore } from '../../shared/claim-store';
import { claimantMessages } from '../../shared/claimant-messages';
import { issueExportDownloadToken } from '../../shared/export-download-token';
import type { SendMessage, SendOutcome } from './delivery-channels';

/** The portal page of a claimant's export; the one-time token rides in the fragment, never sent to a server or logged. */
export function exportLinkUrl(publicBaseUrl: string, claimId: string, exportId: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/portal/claims/${claimId}/exports/${exportId}#download=${token}`;
}

/**
 * Sends the one-time download link of a claimant's ready export (for the delivery worker), in the claim's
 * language, to the contact on record (opened with the lease): a fresh token replaces the stored hash on a transaction that commits
 * only once the provider took the message, with a timeline entry (no token, no address).
 */
export async function sendExportLink(
  db: Knex,
  links: { publicBaseUrl: string; exportLinkTtlHours: number },
  delivery: {
    delivery_id: string;
    claim_id: string;
    export_id: string | null;
    channel: 'email' | 'sms';
    /** opened by leaseDue */ to: string | null;
  },
  send: SendMessage,
): Promise<SendOutcome | { status: 'failed'; lastError: string }> {
  return db.transaction(async (trx) => {
    const claim = await claimStore(trx).find(delivery.claim_id);
    const { to } = delivery;
    if (!claim || !to) {
      return {
        status: 'failed' as const,
        lastError: `The claim has no ${delivery.channel === 'email' ? 'email address' : 'phone number'}`,
      };
    }
    const issued =
      delivery.export_id === null ? undefined : await issueExportDownloadToken(trx, delivery.export_id, links.exportLinkTtlHours);
    if (!issued) return { status: 'failed' as const, lastError: 'The export is not ready' };
    await claimStore(trx).appendAudit({
      claim_id: claim.claim_id,
      action: 'export_link_sent',
      actor: 'system:delivery',
      reason: 'The claimant asked for a copy of their data; the one-time download link was sent',
      data: { delivery_id: delivery.delivery_id, export_id: delivery.export_id, channel: delivery.channel },
    });
    const messages = claimantMessages(claim.language, claim.time_zone);
    return send({
      channel: delivery.channel,
      to,
      claimNumber: claim.claim_number,
      updateId: delivery.delivery_id,
      carriesAccessLink: true,
      subject: messages.format('exportLinkSubject', { claimNumber: claim.claim_number }),
      text: messages.format('exportLinkText', {
        claimNumber: claim.claim_number,
        expiresAt: issued.expiresAt,
        link: exportLinkUrl(links.publicBaseUrl, claim.claim_id, delivery.export_id!, issued.token),
      }),
    });
  });
}
