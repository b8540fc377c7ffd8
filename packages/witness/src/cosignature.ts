import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import { ed25519PublicKeyBytes, ed25519PublicKeyFromBytes, parseNote } from '@platform/merkle';

/**
 * C2SP tlog-cosignature (c2sp.org/tlog-cosignature), cosignature/v1: a witness's Ed25519 signature of
 * `cosignature/v1\ntime <unix seconds>\n<checkpoint body>`, carried as a signed-note signature line
 * `— <witness name> <base64(4-byte key hash ‖ 8-byte big-endian time ‖ 64-byte signature)>`, where the key
 * hash is the first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key). Node.js built-ins only.
 */

const SIGNATURE_PREFIX = '\u2014 '; // EM DASH, space
const COSIGNATURE_V1_TYPE = 0x04;

export interface Cosignature {
  witnessName: string;
  /** Unix seconds at which the witness cosigned. */
  time: number;
  /** The signature line, with its newline, as appended to the checkpoint note. */
  line: string;
}

function assertWitnessName(name: string): void {
  if (name.length === 0 || /[\s+]/u.test(name))
    throw new RangeError(`a witness name is non-empty, without spaces or "+": ${JSON.stringify(name)}`);
}

/** The 4-byte key hash that names a cosignature/v1 key in signature lines. */
export function cosignatureKeyHash(witnessName: string, publicKey: KeyObject): Buffer {
  assertWitnessName(witnessName);
  return createHash('sha256')
    .update(`${witnessName}\n`, 'utf8')
    .update(Buffer.from([COSIGNATURE_V1_TYPE]))
    .update(ed25519PublicKeyBytes(publicKey))
    .digest()
    .subarray(0, 4);
}

/** The exact bytes a cosignature/v1 signature covers. */
export function cosignedMessage(checkpointBody: string, time: number): Buffer {
  if (!checkpointBody.endsWith('\n')) throw new RangeError('a checkpoint body ends with a newline');
  return Buffer.from(`cosignature/v1\ntime ${time}\n${checkpointBody}`, 'utf8');
}

/** The witness's cosignature of `checkpointBody` (the note text its log signed) at `time`. */
export function cosign(checkpointBody: string, witnessName: string, privateKey: KeyObject, time: number): Cosignature {
  const timestamp = Buffer.alloc(8);
  timestamp.writeBigUInt64BE(BigInt(time));
  const signature = sign(null, cosignedMessage(checkpointBody, time), privateKey);
  const encoded = Buffer.concat([cosignatureKeyHash(witnessName, privateKey), timestamp, signature]).toString('base64');
  return { witnessName, time, line: `${SIGNATURE_PREFIX}${witnessName} ${encoded}\n` };
}

/**
 * The cosignature by `witnessName`'s `publicKey` that `note` (a signed note, or one signature line)
 * carries over `checkpointBody`, when one verifies; undefined otherwise.
 */
export function findCosignature(note: string, checkpointBody: string, witnessName: string, publicKey: KeyObject): Cosignature | undefined {
  const parsed = parseNote(note.startsWith(SIGNATURE_PREFIX) ? `${checkpointBody}\n${note}` : note);
  if (!parsed || parsed.text !== checkpointBody) return undefined;
  const keyHash = cosignatureKeyHash(witnessName, publicKey);
  for (const candidate of parsed.signatures) {
    // parseNote splits off the first 4 bytes as the key hash; a cosignature's signature part is time ‖ Ed25519 signature.
    if (candidate.keyName !== witnessName || !candidate.keyHash.equals(keyHash) || candidate.signature.length !== 72) continue;
    const time = candidate.signature.readBigUInt64BE(0);
    if (time > BigInt(Number.MAX_SAFE_INTEGER)) continue;
    if (verify(null, cosignedMessage(checkpointBody, Number(time)), publicKey, candidate.signature.subarray(8))) {
      const encoded = Buffer.concat([candidate.keyHash, candidate.signature]).toString('base64');
      return { witnessName, time: Number(time), line: `${SIGNATURE_PREFIX}${witnessName} ${encoded}\n` };
    }
  }
  return undefined;
}

/** The witness's public key as a C2SP vkey: `<name>+<hex key hash>+<base64(0x04 ‖ public key)>`. */
export function formatWitnessVerifierKey(witnessName: string, publicKey: KeyObject): string {
  const typeAndKey = Buffer.concat([Buffer.from([COSIGNATURE_V1_TYPE]), ed25519PublicKeyBytes(publicKey)]);
  return `${witnessName}+${cosignatureKeyHash(witnessName, publicKey).toString('hex')}+${typeAndKey.toString('base64')}`;
}

/** Reads a witness vkey; undefined when it is malformed, not cosignature/v1, or its key hash does not match. */
export function parseWitnessVerifierKey(verifierKey: string): { witnessName: string; publicKey: KeyObject } | undefined {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(verifierKey.trim());
  if (!match) return undefined;
  const typeAndKey = Buffer.from(match[3], 'base64');
  if (typeAndKey.length !== 33 || typeAndKey[0] !== COSIGNATURE_V1_TYPE) return undefined;
  const publicKey = ed25519PublicKeyFromBytes(typeAndKey.subarray(1));
  return cosignatureKeyHash(match[1], publicKey).toString('hex') === match[2] ? { witnessName: match[1], publicKey } : undefined;
}
