import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createMessageSender, renderStatusUpdate, type OutgoingMessage } from './delivery-channels';

/** A minimal SMTP server that accepts every message and keeps its DATA. */
function fakeSmtp(): Promise<{ url: string; messages: string[]; close(): Promise<void> }> {
  const messages: string[] = [];
  const server: Server = createServer((socket) => {
    let inData = false;
    let buffer = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while (!inData && (index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
      const end = buffer.indexOf('\r\n.\r\n');
      if (inData && end >= 0) {
        messages.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 5);
        inData = false;
        socket.write('250 queued\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`, messages, close: () => new Promise((done) => server.close(() => done())) }),
    ),
  );
}

const update = {
  claim_id: '6a1f7c2e-0000-4000-8000-000000000000',
  channel: 'email' as const,
  stage: 'waiting_on_customer' as const,
  what_happened: 'We reviewed your photos',
  what_happens_next: 'An adjuster visits on Monday',
  what_we_need_from_you: 'A photo of the rear bumper',
  expected_next_update_by: '2026-12-01',
  cta: { label: 'Upload the photo', url: 'https://portal.example/upload' },
  contact: { name: 'Ann', phone: '+14155550199', email: 'ann@insurer.example' },
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
    const send = createMessageSender({ SMTP_FROM: 'claims@example.com' }, logger);
    expect(await send(message('email', 'ana@example.com'))).toBe('logged');
    expect(await send(message('sms', '+14155550100'))).toBe('logged');
  });

  it('sends email through SMTP with what happened, what we need, the call to action and the promised date', async () => {
    const smtp = await fakeSmtp();
    try {
      const send = createMessageSender({ SMTP_URL: smtp.url, SMTP_FROM: 'claims@example.com' }, logger);
      expect(await send(message('email', 'ana@example.com'))).toBe('sent');
      expect(smtp.messages).toHaveLength(1);
      const [mail] = smtp.messages;
      expect(mail).toMatch(/^To: ana@example.com/m);
      expect(mail).toMatch(/^Subject: Update on your claim CLM-2026-000001/m);
      for (const text of ['We reviewed your photos', 'What we need from you: A photo of the rear bumper', 'https://portal.example/upload', 'Your next update by: 2026-12-01']) {
        expect(mail).toContain(text);
      }
    } finally {
      await smtp.close();
    }
  });

  it('fails (for a retry) when the SMTP server is unreachable', async () => {
    const smtp = await fakeSmtp();
    await smtp.close();
    const send = createMessageSender({ SMTP_URL: smtp.url, SMTP_FROM: 'claims@example.com' }, logger);
    await expect(send(message('email', 'ana@example.com'))).rejects.toThrow();
  });
});
