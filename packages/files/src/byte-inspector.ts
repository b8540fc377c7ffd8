import FileType from 'file-type';
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/** Bytes file-type needs to recognise every accepted format. */
export const SNIFF_BYTES = 4100;

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`file over the ${maxBytes}-byte limit`);
  }
}

/**
 * Hashes (SHA-256), measures and inspects bytes as they stream past, keeping only the head in memory;
 * errors with FileTooLargeError as soon as more than `maxBytes` have passed.
 */
export class ByteInspector extends Transform {
  private readonly hash = createHash('sha256');
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  size = 0;
  /** Whether every byte so far is UTF-8 text without NUL characters. */
  utf8Text = true;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new FileTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    if (this.headLength < SNIFF_BYTES) {
      const slice = chunk.subarray(0, SNIFF_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(slice));
      this.headLength += slice.length;
    }
    if (this.utf8Text) {
      try {
        this.decoder.decode(chunk, { stream: true });
        if (chunk.includes(0)) this.utf8Text = false;
      } catch {
        this.utf8Text = false;
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.utf8Text) {
      try {
        this.decoder.decode();
      } catch {
        this.utf8Text = false;
      }
    }
    callback();
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

/** The type the head of some bytes shows by its magic numbers (file-type), or undefined when it shows none. */
export async function detectType(head: Buffer): Promise<{ mime: string; ext: string } | undefined> {
  return FileType.fromBuffer(head);
}
