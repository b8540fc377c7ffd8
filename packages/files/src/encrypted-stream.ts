import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Files encrypted at rest, streamed (format `pvf1`): chunked AES-256-GCM with a tag per chunk, so
 * neither writing nor reading holds more than one chunk, and every chunk is verified before its bytes
 * are passed on.
 *
 *   header  = "pvf1" ‖ chunk size (u32 BE) ‖ nonce prefix (7 random bytes)        15 bytes
 *   chunk i = AES-256-GCM(plaintext[i]) ‖ tag (16 bytes)
 *   nonce i = nonce prefix ‖ i (u32 BE) ‖ 1 for the last chunk, else 0             12 bytes
 *   AAD     = header ‖ context (e.g. `claims.attachment:<claim id>`)
 *
 * Every chunk but the last holds exactly `chunk size` plaintext bytes; the last holds 0 to chunk size
 * (an empty file is one empty last chunk). The last-chunk flag in the nonce makes a stream cut at a
 * chunk boundary fail, the counter makes reordered chunks fail, the header in the AAD makes an altered
 * chunk size fail, and the context makes an object copied to another owner fail. A failure is only
 * found at the damaged chunk: a reader streaming to a client has already sent the verified chunks before
 * it, and must end the response with an error (never with bytes that were not verified).
 */
export const ENCRYPTED_MAGIC = Buffer.from('pvf1', 'ascii');
const PREFIX_BYTES = 7;
const HEADER_BYTES = ENCRYPTED_MAGIC.length + 4 + PREFIX_BYTES;
const TAG_BYTES = 16;
export const ENCRYPTED_CHUNK_BYTES = 64 * 1024;
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;

export class DecryptionError extends Error {}

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error(`an AES-256 key is 32 bytes, not ${key.length}`);
}

function nonce(prefix: Buffer, index: number, last: boolean): Buffer {
  const value = Buffer.alloc(12);
  prefix.copy(value, 0);
  value.writeUInt32BE(index, PREFIX_BYTES);
  value[11] = last ? 1 : 0;
  return value;
}

/** Accumulates bytes and hands out whole pieces of a given size, copying only what it must. */
class Pending {
  private chunks: Buffer[] = [];
  length = 0;
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }
  take(size: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
    const taken = all.subarray(0, size);
    const rest = all.subarray(size);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return taken;
  }
}

/** Encrypts a plaintext stream into the `pvf1` format with `key` (32 bytes), bound to `context`. */
export function encryptingStream(key: Buffer, context: string, chunkBytes = ENCRYPTED_CHUNK_BYTES): Transform {
  checkKey(key);
  const prefix = randomBytes(PREFIX_BYTES);
  const header = Buffer.alloc(HEADER_BYTES);
  ENCRYPTED_MAGIC.copy(header, 0);
  header.writeUInt32BE(chunkBytes, ENCRYPTED_MAGIC.length);
  prefix.copy(header, ENCRYPTED_MAGIC.length + 4);
  const aad = Buffer.concat([header, Buffer.from(context, 'utf8')]);
  const pending = new Pending();
  let index = 0;
  const seal = (plaintext: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(prefix, index++, last));
    cipher.setAAD(aad);
    return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  };
  let headerSent = false;
  const withHeader = (bytes: Buffer) => {
    if (headerSent) return bytes;
    headerSent = true;
    return Buffer.concat([header, bytes]);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending.push(chunk);
      const sealed: Buffer[] = [];
      // Strictly more than a chunk: the last chunk (flagged) is only known at the end.
      while (pending.length > chunkBytes) sealed.push(seal(pending.take(chunkBytes), false));
      callback(null, sealed.length > 0 ? withHeader(Buffer.concat(sealed)) : undefined);
    },
    flush(callback: TransformCallback) {
      callback(null, withHeader(seal(pending.take(pending.length), true)));
    },
  });
}

/** Decrypts a `pvf1` stream; errors with DecryptionError on a wrong key or context, or any altered, missing or added byte. */
export function decryptingStream(key: Buffer, context: string): Transform {
  checkKey(key);
  const pending = new Pending();
  let header: { aad: Buffer; prefix: Buffer; sealedBytes: number } | undefined;
  let index = 0;
  const open = (sealed: Buffer, last: boolean) => {
    if (!header || sealed.length < TAG_BYTES) throw new DecryptionError('the encrypted file is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, nonce(header.prefix, index++, last));
    decipher.setAAD(header.aad);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new DecryptionError('the encrypted file does not open with this key (wrong key or context, or altered bytes)');
    }
  };
  const readHeader = () => {
    const bytes = pending.take(HEADER_BYTES);
    if (!bytes.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC))
      throw new DecryptionError('not an encrypted file (no pvf1 header)');
    const chunkBytes = bytes.readUInt32BE(ENCRYPTED_MAGIC.length);
    if (chunkBytes === 0 || chunkBytes > MAX_CHUNK_BYTES) throw new DecryptionError(`implausible chunk size ${chunkBytes}`);
    header = {
      aad: Buffer.concat([bytes, Buffer.from(context, 'utf8')]),
      prefix: Buffer.from(bytes.subarray(ENCRYPTED_MAGIC.length + 4)),
      sealedBytes: chunkBytes + TAG_BYTES,
    };
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        pending.push(chunk);
        if (!header && pending.length >= HEADER_BYTES) readHeader();
        const opened: Buffer[] = [];
        while (header && pending.length > header.sealedBytes) opened.push(open(pending.take(header.sealedBytes), false));
        callback(null, opened.length > 0 ? Buffer.concat(opened) : undefined);
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (!header) throw new DecryptionError('the encrypted file is truncated');
        callback(null, open(pending.take(pending.length), true));
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
