import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519 signatures, and the transparency log
 * checkpoint they carry (c2sp.org/tlog-checkpoint). Node.js built-ins only.
 *
 * A signed note is its text (lines ending in "\n"), a blank line, then one line per signature:
 * `— <key name> <base64(4-byte key hash ‖ 64-byte signature)>`. The signature covers the text,
 * final newline included.
 */

const SIGNATURE_PREFIX = '\u2014 '; // EM DASH, space
const ED25519_SIGNATURE_TYPE = 0x01;

export interface NoteSignature {
  keyName: string;
  /** First 4 bytes of SHA-256(key name ‖ "\n" ‖ signature type ‖ public key). */
  keyHash: Buffer;
  signature: Buffer;
}

export interface SignedNote {
  text: string;
  signatures: NoteSignature[];
}

/** The 32 raw bytes of an Ed25519 public key (a private key gives its public key). */
export function ed25519PublicKeyBytes(key: KeyObject): Buffer {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new TypeError(`not an Ed25519 key: ${publicKey.asymmetricKeyType}`);
  return Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
}

function assertKeyName(keyName: string): void {
  if (keyName.length === 0 || /[\s+]/u.test(keyName))
    throw new RangeError(`a note key name is non-empty, without spaces or "+": ${JSON.stringify(keyName)}`);
}

/** An Ed25519 public key from its 32 raw bytes. */
export function ed25519PublicKeyFromBytes(bytes: Uint8Array): KeyObject {
  if (bytes.length !== 32) throw new RangeError(`an Ed25519 public key has 32 bytes, not ${bytes.length}`);
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes).toString('base64url') }, format: 'jwk' });
}

/** The C2SP verifier key `<name>+<hex key hash>+<base64(0x01 ‖ public key)>` that pins an Ed25519 key. */
export function formatVerifierKey(keyName: string, publicKey: KeyObject): string {
  const typeAndKey = Buffer.concat([Buffer.from([ED25519_SIGNATURE_TYPE]), ed25519PublicKeyBytes(publicKey)]);
  return `${keyName}+${noteKeyHash(keyName, publicKey).toString('hex')}+${typeAndKey.toString('base64')}`;
}

/** Reads an Ed25519 verifier key; undefined when it is malformed or its key hash does not match. */
export function parseVerifierKey(verifierKey: string): { keyName: string; publicKey: KeyObject } | undefined {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(verifierKey);
  if (!match) return undefined;
  const typeAndKey = Buffer.from(match[3], 'base64');
  if (typeAndKey.length !== 33 || typeAndKey[0] !== ED25519_SIGNATURE_TYPE) return undefined;
  const publicKey = ed25519PublicKeyFromBytes(typeAndKey.subarray(1));
  return noteKeyHash(match[1], publicKey).toString('hex') === match[2] ? { keyName: match[1], publicKey } : undefined;
}

/** The key hash that names an Ed25519 key in signature lines. */
export function noteKeyHash(keyName: string, publicKey: KeyObject): Buffer {
  assertKeyName(keyName);
  return createHash('sha256')
    .update(`${keyName}\n`, 'utf8')
    .update(Buffer.from([ED25519_SIGNATURE_TYPE]))
    .update(ed25519PublicKeyBytes(publicKey))
    .digest()
    .subarray(0, 4);
}

/** The signature line of `text` by the Ed25519 `privateKey` named `keyName` (with its newline). */
export function noteSignatureLine(text: string, keyName: string, privateKey: KeyObject): string {
  const signature = sign(null, Buffer.from(text, 'utf8'), privateKey);
  return `${SIGNATURE_PREFIX}${keyName} ${Buffer.concat([noteKeyHash(keyName, privateKey), signature]).toString('base64')}\n`;
}

/** `text` (which must end in a newline) signed by one Ed25519 key, as a signed note. */
export function signNote(text: string, keyName: string, privateKey: KeyObject): string {
  if (!text.endsWith('\n')) throw new RangeError('a note text ends with a newline');
  return `${text}\n${noteSignatureLine(text, keyName, privateKey)}`;
}

/** Splits a signed note into its text and signature lines; undefined when it is not one. */
export function parseNote(note: string): SignedNote | undefined {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return undefined;
  const text = note.slice(0, split + 1);
  const signatures: NoteSignature[] = [];
  for (const line of note.slice(split + 2, -1).split('\n')) {
    if (!line.startsWith(SIGNATURE_PREFIX)) return undefined;
    const [keyName, encoded, ...rest] = line.slice(SIGNATURE_PREFIX.length).split(' ');
    if (!keyName || !encoded || rest.length > 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
    const bytes = Buffer.from(encoded, 'base64');
    if (bytes.length < 5) return undefined;
    signatures.push({ keyName, keyHash: bytes.subarray(0, 4), signature: bytes.subarray(4) });
  }
  return signatures.length > 0 ? { text, signatures } : undefined;
}

/**
 * The text of `note` when it carries a valid signature by the Ed25519 `publicKey` named `keyName`;
 * undefined otherwise. Signatures by other keys are ignored.
 */
export function verifyNote(note: string, keyName: string, publicKey: KeyObject): string | undefined {
  const parsed = parseNote(note);
  if (!parsed) return undefined;
  const keyHash = noteKeyHash(keyName, publicKey);
  const text = Buffer.from(parsed.text, 'utf8');
  const valid = parsed.signatures.some(
    (s) => s.keyName === keyName && s.keyHash.equals(keyHash) && s.signature.length === 64 && verify(null, text, publicKey, s.signature),
  );
  return valid ? parsed.text : undefined;
}

/** The body of a tlog checkpoint: the log's origin, its size and its root hash. */
export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Buffer;
}

/** `<origin>\n<size>\n<base64 root hash>\n`, the text a checkpoint note signs. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  if (checkpoint.origin.length === 0 || checkpoint.origin.includes('\n')) throw new RangeError('a checkpoint origin is one non-empty line');
  if (!Number.isSafeInteger(checkpoint.size) || checkpoint.size < 0) throw new RangeError(`not a tree size: ${checkpoint.size}`);
  return `${checkpoint.origin}\n${checkpoint.size}\n${checkpoint.rootHash.toString('base64')}\n`;
}

/** Reads a checkpoint's text (extension lines after the root hash are allowed and ignored). */
export function parseCheckpoint(text: string): Checkpoint | undefined {
  const [origin, size, root] = text.split('\n');
  if (!origin || size === undefined || root === undefined || !/^(0|[1-9][0-9]*)$/.test(size)) return undefined;
  const rootHash = Buffer.from(root, 'base64');
  if (rootHash.length !== 32 || rootHash.toString('base64') !== root || !Number.isSafeInteger(Number(size))) return undefined;
  return { origin, size: Number(size), rootHash };
}
