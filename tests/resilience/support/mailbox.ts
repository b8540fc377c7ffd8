import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * An SMTP server that keeps what it is handed as a mail store does, one message per Message-ID, and
 * lists the messages by X-Claim-Update-Id (the delivery sender's header), for scenarios that kill senders
 * mid-session: their broken sockets (EPIPE, ECONNRESET) are ignored. A sender killed after the server
 * took a message but before it recorded the send sends it again under the same Message-ID.
 */
export async function startMailbox(): Promise<{ url: string; updateIds: string[]; resentUpdateIds: string[]; close(): Promise<void> }> {
  const updateIds: string[] = [];
  const resentUpdateIds: string[] = [];
  const messageIds = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = /^Message-ID:\s*(\S+)/im.exec(raw)?.[1];
        const updateId = /^X-Claim-Update-Id:\s*(\S+)/im.exec(raw)?.[1] ?? '';
        if (messageId !== undefined && messageIds.has(messageId)) resentUpdateIds.push(updateId);
        else {
          if (messageId !== undefined) messageIds.add(messageId);
          updateIds.push(updateId);
        }
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    updateIds,
    resentUpdateIds,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
