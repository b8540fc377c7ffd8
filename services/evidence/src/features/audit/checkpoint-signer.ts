import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { canonicalJson } from '@platform/canonical-json';
import { formatCheckpoint, formatVerifierKey, parseCheckpoint, signNote, verifyNote, type Checkpoint } from '@platform/merkle';

/**
 * The origin line of the log's tree heads (c2sp.org/tlog-checkpoint), also the name of the key that
 * signs them as notes (c2sp.org/signed-note), as transparency logs name their keys.
 */
export const AUDIT_LOG_ORIGIN = 'evidence.claims-platform/audit-log';

/**
 * The exact bytes a checkpoint signature covers: the UTF-8 RFC 8785 canonical JSON of
 * `{ "hash": <head hash, hex>, "seq": <record seq, integer> }`, e.g. `{"hash":"9f…","seq":42}`.
 */
export function checkpointMessage(seq: number, hash: string): Buffer {
  return Buffer.from(canonicalJson({ hash, seq }), 'utf8');
}

/** Signs and checks audit checkpoints with one Ed25519 key. */
export interface CheckpointSigner {
  /** First 16 hex characters of SHA-256 over the public key's SPKI DER encoding. */
  readonly keyId: string;
  readonly publicKeyPem: string;
  sign(seq: number, hash: string): string;
  /** Whether `signature` (base64) is this key's signature of the checkpoint message. */
  verify(seq: number, hash: string, signature: string): boolean;
  /** The C2SP verifier key `<origin>+<key hash>+<base64(0x01 ‖ public key)>` that note verifiers pin. */
  readonly verifierKey: string;
  /** The tree head as a C2SP checkpoint, signed as a note by this key. */
  signTreeHead(size: number, rootHash: Buffer): string;
  /** The checkpoint a note carries when this key signed it for this log's origin; undefined otherwise. */
  openTreeHead(note: string): Checkpoint | undefined;
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

export function createCheckpointSigner(privateKey: KeyObject): CheckpointSigner {
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error(`AUDIT_SIGNING_KEY must be an Ed25519 key, not ${privateKey.asymmetricKeyType}`);
  const publicKey = createPublicKey(privateKey);
  return {
    keyId: keyIdOf(publicKey),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sign: (seq, hash) => sign(null, checkpointMessage(seq, hash), privateKey).toString('base64'),
    verify: (seq, hash, signature) => {
      try {
        return verify(null, checkpointMessage(seq, hash), publicKey, Buffer.from(signature, 'base64'));
      } catch {
        return false;
      }
    },
    verifierKey: formatVerifierKey(AUDIT_LOG_ORIGIN, publicKey),
    signTreeHead: (size, rootHash) =>
      signNote(formatCheckpoint({ origin: AUDIT_LOG_ORIGIN, size, rootHash }), AUDIT_LOG_ORIGIN, privateKey),
    openTreeHead: (note) => {
      const text = verifyNote(note, AUDIT_LOG_ORIGIN, publicKey);
      const checkpoint = text === undefined ? undefined : parseCheckpoint(text);
      return checkpoint?.origin === AUDIT_LOG_ORIGIN ? checkpoint : undefined;
    },
  };
}

/** Reads AUDIT_SIGNING_KEY: a PKCS#8 PEM (newlines may be written as `\n`) or base64 of the PKCS#8 DER. */
export function parseSigningKey(value: string): KeyObject {
  try {
    if (value.includes('-----BEGIN')) return createPrivateKey(value.replace(/\\n/g, '\n'));
    return createPrivateKey({ key: Buffer.from(value.trim(), 'base64'), format: 'der', type: 'pkcs8' });
  } catch (error) {
    throw new Error(`AUDIT_SIGNING_KEY is not a PKCS#8 private key (PEM or base64 DER): ${(error as Error).message}`);
  }
}

function signingKeyPath(dataDir: string): string {
  return path.join(dataDir, 'evidence', 'audit-signing-key.pem');
}

/**
 * The service's one signer, shared by the audit routes, the checkpointer and binders. A configured key is
 * checked now, so a bad one stops start-up before anything is opened; the development key is loaded on first use.
 */
export function checkpointSignerFor(configured: string | undefined): (deps: { dataDir: string; logger: Logger }) => CheckpointSigner {
  let signer = configured ? createCheckpointSigner(parseSigningKey(configured)) : undefined;
  return (deps) => (signer ??= loadCheckpointSigner(configured, deps.dataDir, deps.logger));
}

/**
 * The configured key, or in development one kept in `<dataDir>/evidence/audit-signing-key.pem`,
 * generated on first start (its public key is logged so it can be pinned).
 */
function loadCheckpointSigner(configured: string | undefined, dataDir: string, logger: Logger): CheckpointSigner {
  if (configured) return createCheckpointSigner(parseSigningKey(configured));
  const file = signingKeyPath(dataDir);
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const { privateKey } = generateKeyPairSync('ed25519');
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
    }
    pem = readFileSync(file, 'utf8');
    const signer = createCheckpointSigner(parseSigningKey(pem));
    logger.warn(
      { file, key_id: signer.keyId, public_key: signer.publicKeyPem },
      'generated a development audit signing key; set AUDIT_SIGNING_KEY in production',
    );
    return signer;
  }
  return createCheckpointSigner(parseSigningKey(pem));
}
