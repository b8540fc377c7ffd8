import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import type { KeyVault } from '@platform/privacy';

/** How long an unwrapped data key stays in memory: a burst of reads of one claim unwraps once. */
const KEY_CACHE_MS = 60_000;
const KEY_CACHE_ENTRIES = 10_000;
/** The row of `privacy_keys` holding the blind-index key, wrapped like the data keys. */
const INDEX_KEY_NAME = 'claimant-blind-index';

/** Per-claimant data keys (AES-256), stored wrapped by the key vault in `claimants.wrapped_key`. */
export interface ClaimantKeys {
  /**
   * The claimant's data key; null when they have none (erased, or filed while encryption was off). Cached briefly.
   * A caller inside a transaction passes it as `executor`: a read on another connection would wait while the
   * transaction holds one (for ever on the embedded database, which has one).
   */
  keyFor(claimantId: string, executor?: Knex): Promise<Buffer | null>;
  /**
   * The claimant's data key, made and stored on the caller's transaction when they have none (filed while
   * encryption was off). A key made here is cached only once read again after commit.
   */
  keyOrNewFor(trx: Knex, claimantId: string): Promise<Buffer>;
  /** Destroys the claimant's data key on the caller's transaction: what was sealed with it is unreadable from then on. */
  destroyKey(trx: Knex, claimantId: string): Promise<void>;
}

export interface ClaimantContact {
  email: string | null;
  phone: string | null;
}

/** Everything the claims service does with claimants' keys: their data keys, blind indexes, and matching. */
export interface ClaimantPrivacy {
  readonly encrypting: boolean;
  readonly keys: ClaimantKeys;
  /** HMAC-SHA256 of the normalised email / phone (digits only) under the blind-index key. */
  emailIndex(email: string): Promise<string>;
  phoneIndex(phone: string): Promise<string>;
  /**
   * The claimant a new claim belongs to, on the caller's transaction: the one with the same email's blind
   * index, else the same phone's, else a new one; with the key to seal the claim's fields (null while
   * encryption is off). A returning claimant without a key (filed while it was off) is given one now.
   */
  claimantOf(trx: Knex, contact: ClaimantContact): Promise<{ claimantId: string; key: Buffer | null }>;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
export const phoneDigits = (phone: string) => phone.replace(/[^0-9]/g, '');

export function claimantPrivacy(db: Knex, vault: KeyVault, encrypting: boolean): ClaimantPrivacy {
  const cache = new Map<string, { key: Buffer; until: number }>();
  const remember = (claimantId: string, key: Buffer) => {
    if (cache.size >= KEY_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(claimantId, { key, until: Date.now() + KEY_CACHE_MS });
  };
  let indexKey: Promise<Buffer> | undefined;
  /**
   * The blind-index key, read (or made) on `executor`: the intake's transaction passes itself, since a query on
   * `db` would wait for a second connection while it holds one (for ever on the embedded database, which has
   * one). Kept once known to be stored: not when this transaction made it, which may still roll back.
   */
  const indexKeyOn = async (executor: Knex): Promise<Buffer> => {
    if (indexKey) return indexKey;
    const loading = loadIndexKey(executor, vault);
    if (executor === db) {
      indexKey = loading.then(({ key }) => key);
      indexKey.catch(() => (indexKey = undefined));
      return indexKey;
    }
    const { key, made } = await loading;
    if (!made) indexKey ??= Promise.resolve(key);
    return key;
  };
  const hmacIndex = (key: Buffer, kind: string, normalised: string) =>
    createHmac('sha256', key).update(`${kind}:${normalised}`).digest('base64url');
  const blindIndex = async (kind: string, normalised: string) => hmacIndex(await indexKeyOn(db), kind, normalised);

  const newWrappedKey = async () => {
    const key = randomBytes(32);
    return { key, wrapped_key: await vault.wrapKey(key), kek_id: vault.kekId };
  };

  /** A data key as stored (committed, or read on the transaction that stored it), unwrapped and cached. */
  const unwrapStored = async (claimantId: string, wrapped: string) => {
    const key = await vault.unwrapKey(wrapped);
    remember(claimantId, key);
    return key;
  };

  const keys: ClaimantKeys = {
    async keyFor(claimantId, executor = db) {
      const cached = cache.get(claimantId);
      if (cached && cached.until > Date.now()) return cached.key;
      const row = await executor('claimants').where({ id: claimantId }).first('wrapped_key');
      return row?.wrapped_key ? unwrapStored(claimantId, row.wrapped_key) : null;
    },
    async keyOrNewFor(trx, claimantId) {
      const row = await trx('claimants').where({ id: claimantId }).forUpdate().first('wrapped_key');
      if (row?.wrapped_key) return unwrapStored(claimantId, row.wrapped_key);
      const fresh = await newWrappedKey();
      await trx('claimants').where({ id: claimantId }).update({ wrapped_key: fresh.wrapped_key, kek_id: fresh.kek_id });
      return fresh.key;
    },
    async destroyKey(trx, claimantId) {
      cache.delete(claimantId);
      await trx('claimants').where({ id: claimantId }).update({ wrapped_key: null, kek_id: null });
    },
  };

  return {
    encrypting,
    keys,
    emailIndex: (email) => blindIndex('email', normaliseEmail(email)),
    phoneIndex: (phone) => blindIndex('phone', phoneDigits(phone)),
    async claimantOf(trx, contact) {
      // the index key read once: a second read on this transaction would take a key it made itself for a stored one
      const indexKey = contact.email || contact.phone ? await indexKeyOn(trx) : null;
      const emailIndex = indexKey && contact.email ? hmacIndex(indexKey, 'email', normaliseEmail(contact.email)) : null;
      const phoneIndex = indexKey && contact.phone ? hmacIndex(indexKey, 'phone', phoneDigits(contact.phone)) : null;
      const live = () => trx('claimants').whereNull('erased_at').forUpdate();
      const known =
        (emailIndex && (await live().where({ email_index: emailIndex }).first())) ||
        (phoneIndex && (await live().where({ phone_index: phoneIndex }).first())) ||
        undefined;
      if (!known) {
        const fresh = encrypting ? await newWrappedKey() : { key: null, wrapped_key: null, kek_id: null };
        const claimantId = randomUUID();
        await trx('claimants').insert({
          id: claimantId,
          email_index: emailIndex,
          phone_index: phoneIndex,
          wrapped_key: fresh.wrapped_key,
          kek_id: fresh.kek_id,
        });
        if (fresh.key) remember(claimantId, fresh.key);
        return { claimantId, key: fresh.key };
      }
      // a contact the claimant had not given before becomes theirs too (the first email or phone stays)
      const filledIn = { email_index: known.email_index ?? emailIndex, phone_index: known.phone_index ?? phoneIndex };
      if (!encrypting) {
        await trx('claimants').where({ id: known.id }).update(filledIn);
        return { claimantId: known.id, key: null };
      }
      await trx('claimants').where({ id: known.id }).update(filledIn);
      if (known.wrapped_key) return { claimantId: known.id, key: await keys.keyFor(known.id, trx) };
      // not cached when made here: should this transaction roll back, the claimant's other claims must not be sealed with a key never stored
      return { claimantId: known.id, key: await keys.keyOrNewFor(trx, known.id) };
    },
  };
}

/**
 * The blind-index key: 32 random bytes made on first use, kept wrapped by the vault in `privacy_keys` so
 * every replica (and a KMS vault, which holds no secret of its own to derive it from) uses the same one.
 */
async function loadIndexKey(db: Knex, vault: KeyVault): Promise<{ key: Buffer; made: boolean }> {
  const stored = await db('privacy_keys').where({ name: INDEX_KEY_NAME }).first('wrapped_key');
  if (stored) return { key: await vault.unwrapKey(stored.wrapped_key), made: false };
  const ours = await vault.wrapKey(randomBytes(32));
  await db('privacy_keys').insert({ name: INDEX_KEY_NAME, wrapped_key: ours, kek_id: vault.kekId }).onConflict('name').ignore();
  // another replica may have made it first: use whichever was stored
  const { wrapped_key } = await db('privacy_keys').where({ name: INDEX_KEY_NAME }).first('wrapped_key');
  return { key: await vault.unwrapKey(wrapped_key), made: wrapped_key === ours };
}
