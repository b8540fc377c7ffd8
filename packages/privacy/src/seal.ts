import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Field sealing: AES-256-GCM with a random 96-bit IV and the caller's context (e.g. `claims.claimant_email`)
 * as additional authenticated data, so a sealed value copied into another column or row does not open there.
 */
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Marks a sealed value, and names the format (version 1: iv ‖ ciphertext ‖ tag). */
export const SEALED_PREFIX = 'pv1:';
const SEALED_PREFIX_BYTES = Buffer.from(SEALED_PREFIX, 'ascii');

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error(`an AES-256 key is 32 bytes, not ${key.length}`);
}

function encrypt(key: Buffer, plaintext: Buffer, context: string): Buffer {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  return Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/** Throws when the key, the context or any byte differs from what was sealed. */
function decrypt(key: Buffer, sealed: Buffer, context: string): Buffer {
  checkKey(key);
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value is too short');
  const decipher = createDecipheriv(ALGORITHM, key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

/** `pv1:` + base64url(iv ‖ ciphertext ‖ tag). */
export function sealText(key: Buffer, plaintext: string, context: string): string {
  return SEALED_PREFIX + encrypt(key, Buffer.from(plaintext, 'utf8'), context).toString('base64url');
}

export function isSealedText(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

/**
 * The plaintext of a sealed value. A value without the `pv1:` prefix is returned as it is: rows written
 * before encryption, or while it is switched off.
 */
export function openText(key: Buffer, sealed: string, context: string): string {
  if (!isSealedText(sealed)) return sealed;
  return decrypt(key, Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url'), context).toString('utf8');
}

/** The bytes `pv1:` ‖ iv ‖ ciphertext ‖ tag. */
export function sealBytes(key: Buffer, bytes: Buffer, context: string): Buffer {
  return Buffer.concat([SEALED_PREFIX_BYTES, encrypt(key, bytes, context)]);
}

export function isSealedBytes(bytes: Buffer): boolean {
  return bytes.subarray(0, SEALED_PREFIX_BYTES.length).equals(SEALED_PREFIX_BYTES);
}

/**
 * The plaintext of sealed bytes. Unlike openText there is no pass-through (a plain file may well start with
 * `pv1:`): callers holding files written before encryption check isSealedBytes first.
 */
export function openBytes(key: Buffer, sealed: Buffer, context: string): Buffer {
  if (!isSealedBytes(sealed)) throw new Error('not a sealed value (no pv1: prefix)');
  return decrypt(key, sealed.subarray(SEALED_PREFIX_BYTES.length), context);
}
