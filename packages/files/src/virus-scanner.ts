import { connect, type Socket } from 'node:net';
import { variable } from '@platform/config';
import { HttpProblem } from '@platform/http';

/**
 * Where an uploaded file stands with the virus scanner. `not_scanned`: no scanner is configured (the
 * embedded default); `pending`: the scanner could not be reached, a background rescan will decide;
 * `infected`: quarantined, kept for investigation and never served.
 */
export const SCAN_STATUSES = ['pending', 'clean', 'infected', 'not_scanned'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

export interface ScanOutcome {
  status: ScanStatus;
  /** The signature clamd named, for an infected file. */
  signature: string | null;
}

/** The scanner could not give a verdict (down, timed out, or answered ERROR); the file stays pending. */
export class ScannerUnavailableError extends Error {}

/** Opens the bytes to scan (a file in local or object storage); called once per scan. */
export type OpenBytes = () => Promise<AsyncIterable<Buffer | Uint8Array>>;

export interface VirusScanner {
  /** A verdict on the file's bytes; throws ScannerUnavailableError when there is none. */
  scanFile(open: OpenBytes): Promise<{ status: 'clean' | 'infected'; signature: string | null }>;
}

export const scanningVariables = {
  CLAMD_URL: variable.url('ClamAV daemon that scans every uploaded file (tcp://host:port, INSTREAM); unset marks files not_scanned', [
    'tcp',
  ]),
  CLAMD_TIMEOUT_MS: variable.int('How long one scan may take before the file is left pending', 60000, 100),
  SCAN_RETRY_INTERVAL_MS: variable.int('How often files left pending (scanner down) are scanned again', 30000, 100),
};

const CHUNK_BYTES = 64 * 1024;

function parseReply(reply: string): { status: 'clean' | 'infected'; signature: string | null } {
  const text = reply.replace(/\0/g, '').trim();
  if (text === 'stream: OK') return { status: 'clean', signature: null };
  const found = /^stream: (.+) FOUND$/.exec(text);
  if (found) return { status: 'infected', signature: found[1] };
  throw new ScannerUnavailableError(`clamd gave no verdict: ${text.slice(0, 200) || 'an empty reply'}`);
}

/** Writes and waits for the socket to take it, so a large file never piles up in memory. */
function write(socket: Socket, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => socket.write(bytes, (error) => (error ? reject(error) : resolve())));
}

/**
 * A clamd client speaking INSTREAM over TCP: `zINSTREAM\0`, the file as chunks each led by its 4-byte
 * big-endian length, a zero length to finish, then one reply (`stream: OK` or `stream: <name> FOUND`).
 */
export function clamdScanner(url: string, timeoutMs: number): VirusScanner {
  const { hostname, port } = new URL(url);
  return {
    scanFile(open) {
      return new Promise((resolve, reject) => {
        const socket = connect({ host: hostname, port: Number(port || 3310) });
        const replyChunks: Buffer[] = [];
        let settled = false;
        const fail = (error: Error) => {
          if (settled) return;
          settled = true;
          socket.destroy();
          reject(error instanceof ScannerUnavailableError ? error : new ScannerUnavailableError(`clamd at ${url}: ${error.message}`));
        };
        socket.setTimeout(timeoutMs, () => fail(new Error(`no answer within ${timeoutMs} ms`)));
        socket.on('error', fail);
        socket.on('data', (chunk: Buffer) => replyChunks.push(chunk));
        socket.on('close', () => {
          if (settled) return;
          try {
            const verdict = parseReply(Buffer.concat(replyChunks).toString('utf8'));
            settled = true;
            resolve(verdict);
          } catch (error) {
            fail(error as Error);
          }
        });
        socket.on('connect', async () => {
          try {
            await write(socket, Buffer.from('zINSTREAM\0'));
            for await (const chunk of await open()) {
              for (let start = 0; start < chunk.length; start += CHUNK_BYTES) {
                const piece = Buffer.from(chunk.subarray(start, start + CHUNK_BYTES));
                const length = Buffer.alloc(4);
                length.writeUInt32BE(piece.length);
                await write(socket, Buffer.concat([length, piece]));
              }
            }
            await write(socket, Buffer.alloc(4));
          } catch (error) {
            // clamd may answer and close early (a stream over its StreamMaxLength): the reply decides.
            if (replyChunks.length === 0) fail(error as Error);
          }
        });
      });
    },
  };
}

/** The configured scanner, or undefined when CLAMD_URL is unset. */
export function virusScannerFrom(config: { CLAMD_URL?: string; CLAMD_TIMEOUT_MS: number }): VirusScanner | undefined {
  return config.CLAMD_URL ? clamdScanner(config.CLAMD_URL, config.CLAMD_TIMEOUT_MS) : undefined;
}

/** The status a newly uploaded file is stored with: a verdict, `pending` while the scanner is down, or `not_scanned`. */
export async function scanUpload(scanner: VirusScanner | undefined, open: OpenBytes): Promise<ScanOutcome> {
  if (!scanner) return { status: 'not_scanned', signature: null };
  try {
    return await scanner.scanFile(open);
  } catch (error) {
    if (error instanceof ScannerUnavailableError) return { status: 'pending', signature: null };
    throw error;
  }
}

/** Files that are quarantined or still waiting for their scan are never served: 423 Locked. */
export function assertServable(status: ScanStatus): void {
  if (status === 'infected') {
    throw new HttpProblem(
      423,
      'quarantined',
      'Quarantined',
      'The virus scan found a threat in this file; it is kept for investigation and never served',
      { scan_status: status },
    );
  }
  if (status === 'pending') {
    throw new HttpProblem(
      423,
      'scan-pending',
      'Scan pending',
      'This file has not been scanned for viruses yet; it is served once the scan finds it clean',
      { scan_status: status },
    );
  }
}
