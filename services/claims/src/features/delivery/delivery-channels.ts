import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { claimantMessages, type ClaimantMessages } from '../../shared/claimant-messages';
import type { StatusUpdate } from '../../shared/status-update';

/** One message to a claimant; `to` is an email address or an E.164 number. */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  claimNumber: string;
  updateId: string;
  /**
   * Set when sending again means sending the same message (a status update): a send interrupted between
   * the provider's acceptance and our record of it is repeated with the same key, so the recipient's mail
   * store (Message-ID) or the SMS provider (Idempotency-Key) keeps one. An access link has none: its resend
   * carries a new link, and the earlier one never worked.
   */
  idempotencyKey?: string;
  subject: string;
  text: string;
  /**
   * The text holds a new access link, which replaces the claim's token once handed over: with no provider
   * it is written to the log in development (so `pnpm start` shows it) and refused in production, so the
   * earlier link keeps working rather than being replaced by one nobody received.
   */
  carriesAccessLink?: boolean;
}

/** 'sent' when handed to the provider (with the id it gave the message), 'logged' when no provider is configured. */
export type SendOutcome = { status: 'sent'; providerMessageId: string | null } | { status: 'logged'; providerMessageId: null };

/** Throws when sending fails. */
export type SendMessage = (message: OutgoingMessage) => Promise<SendOutcome>;

const SEND_TIMEOUT_MS = 10000;

/**
 * The claimant-facing text of an update: what happened, what happens next, what we need, when we write
 * again — framed in the catalogue's words of the update's language (the adjuster's text is theirs).
 */
export function renderStatusUpdate(
  claimNumber: string,
  update: StatusUpdate,
  messages: ClaimantMessages = claimantMessages(update.language),
): { subject: string; text: string } {
  const lines = [update.what_happened, '', messages.format('updateWhatHappensNext', { text: update.what_happens_next })];
  if (update.what_we_need_from_you) lines.push(messages.format('updateWhatWeNeed', { text: update.what_we_need_from_you }));
  if (update.cta) lines.push(`${update.cta.label}: ${update.cta.url}`);
  // a calendar date: shown as that day (UTC), never shifted by a time zone
  if (update.expected_next_update_by)
    lines.push(messages.format('updateNextUpdateBy', { date: new Date(`${update.expected_next_update_by}T00:00:00Z`) }));
  if (update.portal_url) lines.push(messages.format('updateFollow', { url: update.portal_url }));
  if (update.contact)
    lines.push(
      messages.format('updateQuestions', {
        contact: [update.contact.phone, update.contact.email].join(', '),
      }),
    );
  return { subject: messages.format('updateSubject', { claimNumber }), text: lines.join('\n') };
}

/** The domain of the From address (`Claims <claims@insurer.example>` → `insurer.example`), for Message-IDs. */
function senderDomain(from: string): string {
  return /@([^\s>]+)/.exec(from)?.[1] ?? 'localhost';
}

/** The insurer a claimant message is signed with (BRAND_*, @platform/config). */
export interface Brand {
  BRAND_NAME?: string;
  BRAND_CONTACT_PHONE?: string;
  BRAND_CONTACT_EMAIL?: string;
}

/** Every message ends with the insurer's name and how to reach it, in any language (a name and two addresses). */
export function signWithBrand(text: string, brand: Brand): string {
  if (!brand.BRAND_NAME) return text;
  return `${text}\n\n— ${[brand.BRAND_NAME, brand.BRAND_CONTACT_PHONE, brand.BRAND_CONTACT_EMAIL].filter(Boolean).join(' · ')}`;
}

/**
 * Each message is signed with the insurer (signWithBrand). Email through SMTP (nodemailer) when SMTP_URL is set, SMS through a POST to SMS_WEBHOOK_URL when it
 * is set (its JSON answer's `id`, if any, is kept as the provider's message id); with neither, the message is written to the log (without its text: it may hold personal data).
 */
export function createMessageSender(
  settings: { SMTP_URL?: string; SMTP_FROM: string; SMS_WEBHOOK_URL?: string; NODE_ENV: string } & Brand,
  logger: Logger,
): SendMessage {
  const mailer = settings.SMTP_URL
    ? nodemailer.createTransport(settings.SMTP_URL, {
        connectionTimeout: SEND_TIMEOUT_MS,
        greetingTimeout: SEND_TIMEOUT_MS,
        socketTimeout: SEND_TIMEOUT_MS,
      } as never)
    : undefined;
  return async (unsigned) => {
    const message = { ...unsigned, text: signWithBrand(unsigned.text, settings) };
    if (message.channel === 'email' && mailer) {
      const info = await mailer.sendMail({
        from: settings.SMTP_FROM,
        to: message.to,
        subject: message.subject,
        text: message.text,
        headers: { 'X-Claim-Update-Id': message.updateId },
        ...(message.idempotencyKey ? { messageId: `<${message.idempotencyKey}@${senderDomain(settings.SMTP_FROM)}>` } : {}),
      });
      return { status: 'sent', providerMessageId: info.messageId ?? null };
    }
    if (message.channel === 'sms' && settings.SMS_WEBHOOK_URL) {
      const response = await fetch(settings.SMS_WEBHOOK_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(message.idempotencyKey ? { 'idempotency-key': message.idempotencyKey } : {}) },
        body: JSON.stringify({ to: message.to, body: message.text, reference: message.updateId }),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`SMS webhook answered ${response.status}`);
      const answer = (await response.json().catch(() => null)) as { id?: unknown } | null;
      return { status: 'sent', providerMessageId: typeof answer?.id === 'string' ? answer.id : null };
    }
    if (message.carriesAccessLink) {
      if (settings.NODE_ENV === 'production')
        throw new Error(`No ${message.channel} provider is configured to hand the new access link to`);
      logger.warn(
        { channel: message.channel, claim_number: message.claimNumber, text: message.text },
        'development: no SMTP_URL or SMS_WEBHOOK_URL, so the new access link is handed over here',
      );
      return { status: 'logged', providerMessageId: null };
    }
    logger.info(
      { channel: message.channel, claim_number: message.claimNumber, update_id: message.updateId },
      'status update delivery logged (no provider configured)',
    );
    return { status: 'logged', providerMessageId: null };
  };
}
