import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { headerOf, startSmtpTestServer } from '../../testing/smtp-test-server';
import { createMessageSender, renderStatusUpdate, signWithBrand, type OutgoingMessage } from './delivery-channels';

const update = {
  claim_id: '6a1f7c2e-0000-4000-8000-000000000000',
  channel: 'email' as const,
  stage: 'waiting_on_customer' as const,
  what_happened: 'We reviewed your photos',
  what_happens_next: 'An adjuster visits on Monday',
  what_we_need_from_you: 'A photo of the rear bumper',
  expected_next_update_by: '2026-12-01',
  cta: { label: 'Upload the photo', url: 'https://portal.example/upload' },
  contact: { phone: '+14155550199', email: 'ann@insurer.example' },
  portal_url: null,
  language: 'en',
  adequacy_score: 0.89,
  adequacy_missing: [],
};

function message(channel: 'email' | 'sms', to: string): OutgoingMessage {
  return { channel, to, claimNumber: 'CLM-2026-000001', updateId: 'u-1', ...renderStatusUpdate('CLM-2026-000001', update) };
}

describe('delivery channels', () => {
  const logger = pino({ level: 'silent' });

  it('logs instead of sending when no provider is configured', async () => {
    const send = createMessageSender({ SMTP_FROM: 'claims@example.com', NODE_ENV: 'test' }, logger);
    expect(await send(message('email', 'ana@example.com'))).toEqual({ status: 'logged', providerMessageId: null });
    expect(await send(message('sms', '+14155550100'))).toEqual({ status: 'logged', providerMessageId: null });
  });

  it("signs every message with the insurer's name and contact (BRAND_*), whatever its channel", async () => {
    const smtp = await startSmtpTestServer();
    try {
      const brand = { BRAND_NAME: 'Aseguradora Sol', BRAND_CONTACT_PHONE: '+34900123456', BRAND_CONTACT_EMAIL: 'siniestros@sol.example' };
      const send = createMessageSender({ SMTP_URL: smtp.url, SMTP_FROM: 'claims@example.com', NODE_ENV: 'test', ...brand }, logger);
      await send(message('email', 'ana@example.com'));
      expect(smtp.received[0].text.trimEnd()).toMatch(/\r?\n\r?\n— Aseguradora Sol · \+34900123456 · siniestros@sol\.example$/);
      expect(signWithBrand('Hola', {})).toBe('Hola');
    } finally {
      await smtp.close();
    }
  });

  it('hands a new access link to the log in development when no provider is configured, and refuses to in production', async () => {
    const lines: string[] = [];
    const capture = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const link = {
      ...message('email', 'ana@example.com'),
      text: 'Open https://claims.example/portal/claims/c#token=abc',
      carriesAccessLink: true,
    };
    const development = createMessageSender({ SMTP_FROM: 'claims@example.com', NODE_ENV: 'development' }, capture);
    expect(await development(link)).toEqual({ status: 'logged', providerMessageId: null });
    expect(lines.join('')).toContain('#token=abc');
    const production = createMessageSender({ SMTP_FROM: 'claims@example.com', NODE_ENV: 'production' }, capture);
    await expect(production(link)).rejects.toThrow(/No email provider is configured/);
  });

  it('sends email through SMTP with what happened, what we need, the call to action and the promised date', async () => {
    const smtp = await startSmtpTestServer();
    try {
      const send = createMessageSender({ SMTP_URL: smtp.url, SMTP_FROM: 'claims@example.com', NODE_ENV: 'test' }, logger);
      const outcome = await send(message('email', 'ana@example.com'));
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.to).toEqual(['ana@example.com']);
      expect(mail.from).toBe('claims@example.com');
      expect(headerOf(mail.raw, 'Subject')).toBe('Update on your claim CLM-2026-000001');
      expect(outcome).toEqual({ status: 'sent', providerMessageId: headerOf(mail.raw, 'Message-ID') });
      for (const text of [
        'We reviewed your photos',
        'What we need from you: A photo of the rear bumper',
        'https://portal.example/upload',
        'Your next update by: December 1, 2026',
      ]) {
        expect(mail.text).toContain(text);
      }
    } finally {
      await smtp.close();
    }
  });

  it('fails (for a retry) when the SMTP server refuses the recipient, with its answer', async () => {
    const smtp = await startSmtpTestServer(['gone@example.com']);
    try {
      const send = createMessageSender({ SMTP_URL: smtp.url, SMTP_FROM: 'claims@example.com', NODE_ENV: 'test' }, logger);
      await expect(send(message('email', 'gone@example.com'))).rejects.toThrow(/550/);
      expect(smtp.received).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });

  it('fails (for a retry) when the SMTP server is unreachable', async () => {
    const smtp = await startSmtpTestServer();
    await smtp.close();
    const send = createMessageSender({ SMTP_URL: smtp.url, SMTP_FROM: 'claims@example.com', NODE_ENV: 'test' }, logger);
    await expect(send(message('email', 'ana@example.com'))).rejects.toThrow();
  });

  it('repeats a status update under the same Message-ID, so a resend after a crash is one message to the mail store', async () => {
    const smtp = await startSmtpTestServer();
    try {
      const send = createMessageSender({ SMTP_URL: smtp.url, SMTP_FROM: 'Claims <claims@insurer.example>', NODE_ENV: 'test' }, logger);
      const keyed = { ...message('email', 'ana@example.com'), idempotencyKey: 'delivery-7' };
      const first = await send(keyed);
      const again = await send(keyed);
      await send(message('email', 'ana@example.com'));
      await send(message('email', 'ana@example.com'));
      const ids = smtp.received.map((mail) => headerOf(mail.raw, 'Message-ID'));
      expect(ids[0]).toBe('<delivery-7@insurer.example>');
      expect([first.providerMessageId, again.providerMessageId]).toEqual([ids[0], ids[0]]);
      expect(new Set(ids).size).toBe(3);
    } finally {
      await smtp.close();
    }
  });

  it('sends an SMS through the webhook with the idempotency key only when the message has one', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume().on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{"id":"sms-1"}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
      const send = createMessageSender({ SMTP_FROM: 'claims@example.com', SMS_WEBHOOK_URL: url, NODE_ENV: 'test' }, logger);
      expect(await send({ ...message('sms', '+14155550100'), idempotencyKey: 'delivery-7' })).toEqual({
        status: 'sent',
        providerMessageId: 'sms-1',
      });
      await send(message('sms', '+14155550100'));
      expect(seen.map((headers) => headers['idempotency-key'])).toEqual(['delivery-7', undefined]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
