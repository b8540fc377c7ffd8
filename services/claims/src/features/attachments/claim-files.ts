import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Knex } from '@platform/db';
import { openSealed, sealTemporary, type ObjectStoreConfig, type ScannedFile } from '@platform/files';
import { claimantPrivacyFor } from '../claimants';
import { attachmentStorage } from './attachment-storage';
import type { ReceivedFile } from './multipart-upload';

/** A claim file that cannot be read: no such attachment, its stored bytes are gone, or its claimant's key was destroyed (erased). */
export class ClaimFileUnreadable extends Error {}

/** What an attachment's encryption is bound to (the AAD): a stored file copied to another attachment or claim does not open. */
const contextOf = (claimId: string, attachmentId: string) => `claims.attachment:${claimId}:${attachmentId}`;

interface ClaimFilesConfig extends ObjectStoreConfig {
  PRIVACY_ENCRYPTION: boolean;
  KEY_VAULT: string;
}

/**
 * Attachment files at rest. With PRIVACY_ENCRYPTION on, a file is sealed after its virus scan with the data key
 * of the claim's claimant (streamed `pvf1`, bound to the claim and attachment ids) and stored under the SHA-256
 * of its encrypted bytes (`stored_sha256`); files stored before (`stored_sha256` null) stay plain at `sha256`.
 * `open` is the one way every reader (downloads, the rescan, exports) gets a file's bytes.
 */
export function claimFiles(deps: { db: Knex; dataDir: string }, config: ClaimFilesConfig) {
  const storage = attachmentStorage(config, deps.dataDir);
  const privacy = claimantPrivacyFor(deps, config);
  const keyOfClaim = async (claimId: string, executor: Knex): Promise<Buffer | null> => {
    const claim = await executor('claims').where({ id: claimId }).first('claimant_id');
    return claim ? privacy.keys.keyFor(claim.claimant_id, executor) : null;
  };

  return {
    storage,

    /**
     * The key new files of the claim are sealed with (its claimant given one, in a commit of its own, when
     * they have none: filed while encryption was off); null while encryption is off.
     */
    async sealingKey(claimId: string): Promise<Buffer | null> {
      if (!privacy.encrypting) return null;
      return deps.db.transaction(async (trx) => {
        const { claimant_id: claimantId } = await trx('claims').where({ id: claimId }).first('claimant_id');
        return privacy.keys.keyOrNewFor(trx, claimantId);
      });
    },

    /** Encrypts a scanned upload's temporary file for a new attachment of the claim (its id chosen here), removing the plaintext. */
    async seal(claimId: string, key: Buffer, file: ScannedFile<ReceivedFile>): Promise<ScannedFile<ReceivedFile>> {
      const attachmentId = randomUUID();
      const sealed = await sealTemporary(storage, file.temporaryId, key, contextOf(claimId, attachmentId));
      return { ...file, attachmentId, temporaryId: sealed.temporaryId, storedAs: sealed.storedSha256 };
    },

    /**
     * The plaintext of an attachment, streamed (decrypted chunk by chunk when it was sealed). `executor`: the
     * caller's transaction, when it holds one (the key is read on it). A damaged file errors the stream.
     */
    async open(claimId: string, attachmentId: string, executor: Knex = deps.db): Promise<Readable> {
      const row = (await executor('attachments').where({ id: attachmentId, claim_id: claimId }).first('sha256', 'stored_sha256')) as
        { sha256: string; stored_sha256: string | null } | undefined;
      if (!row) throw new ClaimFileUnreadable(`no attachment ${attachmentId} on claim ${claimId}`);
      const key = row.stored_sha256 === null ? null : await keyOfClaim(claimId, executor);
      if (row.stored_sha256 !== null && !key) throw new ClaimFileUnreadable(`the key of attachment ${attachmentId} was destroyed`);
      const stored = await storage.open(row.stored_sha256 ?? row.sha256).catch((error: Error) => {
        throw new ClaimFileUnreadable(`the stored file of attachment ${attachmentId} is missing: ${error.message}`);
      });
      return key ? openSealed(stored, key, contextOf(claimId, attachmentId)) : stored;
    },
  };
}

export type ClaimFiles = ReturnType<typeof claimFiles>;
