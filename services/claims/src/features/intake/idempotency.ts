import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { canonicalSha256 } from '@platform/canonical-json';
import type { Knex, PendingWrite } from '@platform/db';
import { problems } from '@platform/http';

/**
 * Idempotency-Key handling for intake (Stripe's model). The key row is inserted with
 * `ON CONFLICT DO NOTHING` inside the intake transaction: a concurrent retry waits on that insert until
 * the first request commits (then replays its answer) or rolls back (then runs itself).
 *
 * The stored answer holds the claimant's access token, so it is sealed with AES-256-GCM under a key
 * derived from the Idempotency-Key itself, which is stored only as a different hash: the database alone
 * never yields a usable token.
 */
export interface StoredResponse {
  status: number;
  location: string;
  body: unknown;
}

const SEAL_CONTEXT = 'claims.idempotency.seal.v1:';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function keyHash(idempotencyKey: string): string {
  return sha256(idempotencyKey).toString('hex');
}

/** SHA-256 of the RFC 8785 canonical JSON of the body: the same JSON, however formatted, is the same request. */
export function requestDigest(body: unknown): string {
  return canonicalSha256(body);
}

function seal(idempotencyKey: string, response: StoredResponse): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sha256(SEAL_CONTEXT + idempotencyKey), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
}

function unseal(idempotencyKey: string, sealed: string): StoredResponse {
  const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sha256(SEAL_CONTEXT + idempotencyKey), iv);
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8')) as StoredResponse;
}

export interface IdempotencyClaim {
  /** A stored answer to replay: the operation must not run again. */
  replay?: StoredResponse;
}

export function idempotencyStore(db: Knex) {
  return {
    /**
     * Claims `idempotencyKey` for `operation` on the caller's transaction. Returns `{}` when this request
     * owns the key (run the operation, then `storeIdempotentResponse`), or the answer to replay. Same key
     * with another body is 422. An expired row is removed first, so an old key starts afresh.
     */
    async claimKey(operation: string, idempotencyKey: string, digest: string, retentionHours: number): Promise<IdempotencyClaim> {
      const hash = keyHash(idempotencyKey);
      await db('idempotency_keys').where({ operation, key_hash: hash }).andWhere('expires_at', '<=', db.raw('now()')).delete();
      const inserted = await db('idempotency_keys')
        .insert({
          operation,
          key_hash: hash,
          request_digest: digest,
          expires_at: db.raw(`now() + make_interval(hours => ?)`, [retentionHours]),
        })
        .onConflict(['operation', 'key_hash'])
        .ignore()
        .returning('key_hash');
      if (inserted.length > 0) return {};
      const existing = (await db('idempotency_keys').where({ operation, key_hash: hash }).first()) as
        { request_digest: string; sealed_response: string | null } | undefined;
      if (!existing || existing.sealed_response === null) {
        // Only possible if the row vanished or was stored without an answer; both mean "retry later".
        throw problems.conflict('A request with this Idempotency-Key is still being processed; retry shortly');
      }
      if (existing.request_digest !== digest) {
        throw problems.unprocessable('This Idempotency-Key was used with a different request body');
      }
      return { replay: unseal(idempotencyKey, existing.sealed_response) };
    },

    /** Stores the answer to replay under the key this request owns, when awaited or passed to `writeTogether`. */
    storeResponse(operation: string, idempotencyKey: string, response: StoredResponse, claimId: string): PendingWrite {
      return db('idempotency_keys')
        .where({ operation, key_hash: keyHash(idempotencyKey) })
        .update({ sealed_response: seal(idempotencyKey, response), claim_id: claimId });
    },

    /** Removes stored answers past their retention; returns how many. */
    async purgeExpired(): Promise<number> {
      return db('idempotency_keys').where('expires_at', '<=', db.raw('now()')).delete();
    },
  };
}

export type IdempotencyStore = ReturnType<typeof idempotencyStore>;
