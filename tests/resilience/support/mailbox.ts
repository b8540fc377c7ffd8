import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * An SMTP server that counts what it is handed by X-Claim-Update-Id (the delivery sender's header), for
 * scenarios that kill senders mid-session: their broken sockets (EPIPE, ECONNRESET) are ignored.
 */
export async function startMailbox(): Promise<{ url: string; updateIds: string[]; close(): Promise<void> }> {
  const updateIds: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        updateIds.push(/^X-Claim-Update-Id:\s*(\S+)/im.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '');
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, updateIds, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
