import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import type { KeyVault } from '@platform/privacy';
import { rewrapKeys, type RewrapPass } from './key-rewrap';

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

/** A key of the service's own, the same for every replica: kept wrapped by the key vault in `privacy_keys`. */
export interface SharedKey {
  /**
   * The key, read (or made, once, race-free) on `executor`: a transaction passes itself, since a query on
   * another connection would wait while it holds one (for ever on the embedded database, which has one).
   */
  on(executor?: Knex): Promise<Buffer>;
}

/** Everything the claims service does with claimants' keys: their data keys, blind indexes, and matching. */
export interface ClaimantPrivacy {
  readonly encrypting: boolean;
  readonly keys: ClaimantKeys;
  /**
   * The shared key stored as `name`; the first replica to need it stores `initial()` when given one (a key an
   * earlier version kept in a file, so what it keyed still matches), else 32 random bytes.
   */
  sharedKey(name: string, initial?: () => Buffer | undefined): SharedKey;
  /** HMAC-SHA256 of the normalised email / phone (digits only) under the blind-index key. */
  emailIndex(email: string): Promise<string>;
  phoneIndex(phone: string): Promise<string>;
  /**
   * The claimant a new claim belongs to, on the caller's transaction: the one with the same email's blind
   * index, else the same phone's, else a new one; with the key to seal the claim's fields (null while
   * encryption is off). A returning claimant without a key (filed while it was off) is given one now.
   */
  claimantOf(trx: Knex, contact: ClaimantContact): Promise<{ claimantId: string; key: Buffer | null }>;
  /** After a KEK rotation: the keys a retired KEK wrapped, wrapped again by the current one (key-rewrap.ts). */
  rewrapKeys(): Promise<RewrapPass>;
}

/** A key as stored: wrapped, and which KEK wrapped it (null: written before kek ids were kept, the vault's own). */
interface WrappedKey {
  wrapped_key: string;
  kek_id: string | null;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
export const phoneDigits = (phone: string) => phone.replace(/[^0-9]/g, '');

export function claimantPrivacy(db: Knex, vault: KeyVault, encrypting: boolean): ClaimantPrivacy {
  const cache = new Map<string, { key: Buffer; until: number }>();
  /**
   * Claimants whose key this process destroyed: never cached again, so a read racing the erasure (it read the key
   * before the erasure committed, e.g. the delivery worker) cannot keep it in memory after.
   */
  const destroyed = new Set<string>();
  const remember = (claimantId: string, key: Buffer) => {
    if (destroyed.has(claimantId)) return;
    if (cache.size >= KEY_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(claimantId, { key, until: Date.now() + KEY_CACHE_MS });
  };
  const sharedKeys = new Map<string, SharedKey>();
  const sharedKey = (name: string, initial?: () => Buffer | undefined): SharedKey => {
    let known = sharedKeys.get(name);
    if (!known) sharedKeys.set(name, (known = storedSharedKey(db, vault, name, initial)));
    return known;
  };
  const indexKey = sharedKey(INDEX_KEY_NAME);
  const hmacIndex = (key: Buffer, kind: string, normalised: string) =>
    createHmac('sha256', key).update(`${kind}:${normalised}`).digest('base64url');
  const blindIndex = async (kind: string, normalised: string) => hmacIndex(await indexKey.on(), kind, normalised);

  const newWrappedKey = async () => {
    const key = randomBytes(32);
    return { key, wrapped_key: await vault.wrapKey(key), kek_id: vault.kekId };
  };

  /** A data key as stored (committed, or read on the transaction that stored it), unwrapped and cached. */
  const unwrapStored = async (claimantId: string, stored: WrappedKey) => {
    const key = await vault.unwrapKey(stored.wrapped_key, stored.kek_id ?? undefined);
    remember(claimantId, key);
    return key;
  };

  const cachedKey = (claimantId: string) => {
    const cached = cache.get(claimantId);
    return cached && cached.until > Date.now() ? cached.key : undefined;
  };

  const keys: ClaimantKeys = {
    async keyFor(claimantId, executor = db) {
      const cached = cachedKey(claimantId);
      if (cached) return cached;
      const row = await executor('claimants').where({ id: claimantId }).first('wrapped_key', 'kek_id');
      return row?.wrapped_key ? unwrapStored(claimantId, row) : null;
    },
    async keyOrNewFor(trx, claimantId) {
      const row = await trx('claimants').where({ id: claimantId }).forUpdate().first('wrapped_key', 'kek_id');
      if (row?.wrapped_key) return unwrapStored(claimantId, row);
      const fresh = await newWrappedKey();
      await trx('claimants').where({ id: claimantId }).update({ wrapped_key: fresh.wrapped_key, kek_id: fresh.kek_id });
      return fresh.key;
    },
    async destroyKey(trx, claimantId) {
      destroyed.add(claimantId);
      cache.delete(claimantId);
      await trx('claimants').where({ id: claimantId }).update({ wrapped_key: null, kek_id: null });
    },
  };

  return {
    encrypting,
    keys,
    sharedKey,
    rewrapKeys: () => rewrapKeys(db, vault),
    emailIndex: (email) => blindIndex('email', normaliseEmail(email)),
    phoneIndex: (phone) => blindIndex('phone', phoneDigits(phone)),
    async claimantOf(trx, contact) {
      // the index key read once: a second read on this transaction would take a key it made itself for a stored one
      const key = contact.email || contact.phone ? await indexKey.on(trx) : null;
      const emailIndex = key && contact.email ? hmacIndex(key, 'email', normaliseEmail(contact.email)) : null;
      const phoneIndex = key && contact.phone ? hmacIndex(key, 'phone', phoneDigits(contact.phone)) : null;
      const live = () => trx('claimants').whereNull('erased_at').forUpdate();
      const find = async () =>
        (emailIndex && (await live().where({ email_index: emailIndex }).first())) ||
        (phoneIndex && (await live().where({ phone_index: phoneIndex }).first())) ||
        undefined;
      let known = await find();
      if (!known) {
        const fresh = encrypting ? await newWrappedKey() : { key: null, wrapped_key: null, kek_id: null };
        const claimantId = randomUUID();
        // the unique indexes of migration 0029: a concurrent intake of the same new claimant may insert first
        const inserted = await trx('claimants')
          .insert({
            id: claimantId,
            email_index: emailIndex,
            phone_index: phoneIndex,
            wrapped_key: fresh.wrapped_key,
            kek_id: fresh.kek_id,
          })
          .onConflict()
          .ignore()
          .returning('id');
        if (inserted.length > 0) {
          if (fresh.key) remember(claimantId, fresh.key);
          return { claimantId, key: fresh.key };
        }
        // the insert waited for the winner to commit: this statement sees it
        known = await find();
        if (!known) throw new Error('a claimant with this contact was made concurrently and is gone');
      }
      // a contact the claimant had not given before becomes theirs too (the first email or phone stays)
      const filledIn = { email_index: known.email_index ?? emailIndex, phone_index: known.phone_index ?? phoneIndex };
      if (filledIn.email_index !== known.email_index || filledIn.phone_index !== known.phone_index)
        await fillInContacts(trx, known.id, filledIn);
      if (!encrypting) return { claimantId: known.id, key: null };
      // the row locked above holds their stored key: no second read
      if (known.wrapped_key) return { claimantId: known.id, key: cachedKey(known.id) ?? (await unwrapStored(known.id, known)) };
      // not cached when made here: should this transaction roll back, the claimant's other claims must not be sealed with a key never stored
      return { claimantId: known.id, key: await keys.keyOrNewFor(trx, known.id) };
    },
  };
}

/**
 * Gives a returning claimant the contact they had not given before, in a savepoint: an intake at the same moment
 * may just have made a new claimant with that contact (the unique indexes of 0029), and then it stays theirs.
 */
async function fillInContacts(trx: Knex, claimantId: string, contacts: { email_index: string | null; phone_index: string | null }) {
  try {
    await trx.transaction((savepoint) => savepoint('claimants').where({ id: claimantId }).update(contacts));
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
  }
}

/**
 * A shared key (the blind-index key, the name index key): made on first use and kept wrapped by the vault in
 * `privacy_keys`, so every replica (and a KMS vault, which holds no secret of its own to derive it from) uses
 * the same one. Kept in memory once known to be stored: not when a transaction made it, which may still roll back.
 */
function storedSharedKey(db: Knex, vault: KeyVault, name: string, initial?: () => Buffer | undefined): SharedKey {
  let stored: Promise<Buffer> | undefined;
  return {
    async on(executor = db) {
      if (stored) return stored;
      const loading = loadSharedKey(executor, vault, name, initial);
      if (executor === db) {
        stored = loading.then(({ key }) => key);
        stored.catch(() => (stored = undefined));
        return stored;
      }
      const { key, made } = await loading;
      if (!made) stored ??= Promise.resolve(key);
      return key;
    },
  };
}

async function loadSharedKey(
  db: Knex,
  vault: KeyVault,
  name: string,
  initial?: () => Buffer | undefined,
): Promise<{ key: Buffer; made: boolean }> {
  const stored = await db('privacy_keys').where({ name }).first('wrapped_key', 'kek_id');
  if (stored) return { key: await vault.unwrapKey(stored.wrapped_key, stored.kek_id), made: false };
  const ours = await vault.wrapKey(initial?.() ?? randomBytes(32));
  await db('privacy_keys').insert({ name, wrapped_key: ours, kek_id: vault.kekId }).onConflict('name').ignore();
  // another replica may have made it first: use whichever was stored
  const { wrapped_key, kek_id } = await db('privacy_keys').where({ name }).first('wrapped_key', 'kek_id');
  return { key: await vault.unwrapKey(wrapped_key, kek_id), made: wrapped_key === ours };
}
