import { createHash } from 'node:crypto';
import { Transform, pipeline, type Readable } from 'node:stream';
import { decryptingStream, encryptingStream } from './encrypted-stream';
import type { FileStorage } from './file-storage';

/**
 * `source` encrypted (`pvf1`, see encrypted-stream.ts) as a stream, and the SHA-256 of the encrypted bytes
 * (`storedSha256()` once it has ended): the content address to store them at. An error of `source` errors it.
 */
export function sealedStream(source: Readable, key: Buffer, context: string): { bytes: Readable; storedSha256: () => string } {
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  pipeline(source, encryptingStream(key, context), tap, () => undefined);
  return { bytes: tap, storedSha256: () => hash.digest('hex') };
}

/**
 * Encrypts a temporary object (`pvf1`, see encrypted-stream.ts) into a new temporary object and removes
 * the plaintext one, streaming: memory holds a chunk, never the file. Returns the new object's id and the
 * SHA-256 of its stored (encrypted) bytes, the content address to place it at. On failure the new object
 * is not left behind; the plaintext one is the caller's to discard.
 */
export async function sealTemporary(
  storage: FileStorage,
  temporaryId: string,
  key: Buffer,
  context: string,
): Promise<{ temporaryId: string; storedSha256: string }> {
  const sealed = sealedStream(await storage.openTemporary(temporaryId), key, context);
  const sealedId = await storage.writeTemporary(sealed.bytes);
  try {
    await storage.discard(temporaryId);
  } catch (error) {
    await storage.discard(sealedId).catch(() => undefined);
    throw error;
  }
  return { temporaryId: sealedId, storedSha256: sealed.storedSha256() };
}

/** The plaintext of a sealed stored stream; errors with DecryptionError on a wrong key or context or altered bytes. */
export function openSealed(stored: Readable, key: Buffer, context: string): Readable {
  const plaintext = decryptingStream(key, context);
  pipeline(stored, plaintext, () => undefined); // a failing source errors the plaintext stream
  return plaintext;
}
