import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex, PendingWrite } from '@platform/db';
import type { ClaimantPrivacy, SharedKey } from '../claimants';
import { foldSearch } from './claim-search';

/**
 * The keyed name index (migration 0025): the claims list finds a claimant's name fuzzily without the name
 * being stored in a form the database alone can read. A name is normalised (foldSearch: lower case, Latin
 * accents folded), cut into pg_trgm's trigrams (each word padded with two spaces before and one after),
 * and each trigram replaced by a token: HMAC-SHA256 under a service key, truncated to TOKEN_BITS. The
 * tokens are few on purpose: 4,096 values for the tens of thousands of trigrams names hold, so each token
 * stands for several trigrams and a token's frequency is not a trigram's (docs/claims.md, "What the name
 * index reveals").
 */
export const TOKEN_BITS = 12;

/**
 * The similarity a name needs to be found (nameSimilarity in the store: the share of the search's tokens
 * the name holds), as pg_trgm's word similarity threshold was before the index was keyed: a name with two
 * typos, one in each word ("Jonathon Smithsen" for Jonathan Smithson) or two in a short one ("Okafur" for
 * Okafor), is found, while unrelated names stay out (John Smith holds 7 of the 18 tokens of "Jonathon Smithsen").
 */
export const NAME_SIMILARITY_THRESHOLD = 0.5;
const TOKEN_MASK = (1 << TOKEN_BITS) - 1;

/** A word of a name: letters and digits (as pg_trgm cuts words; anything else separates them). */
const WORD = /[\p{L}\p{N}]+/gu;

/** The distinct trigrams of a name as pg_trgm takes them (`show_trgm`), after foldSearch. */
export function nameTrigrams(name: string): string[] {
  const trigrams = new Set<string>();
  for (const word of foldSearch(name).match(WORD) ?? []) {
    const padded = [...`  ${word} `];
    for (let i = 0; i + 3 <= padded.length; i += 1) trigrams.add(padded.slice(i, i + 3).join(''));
  }
  return [...trigrams];
}

/** The name's tokens, distinct and ascending (equal names give equal arrays, which the index compares). */
export function nameTokens(name: string, key: Buffer): number[] {
  const tokens = new Set(
    nameTrigrams(name).map((trigram) => createHmac('sha256', key).update(trigram).digest().readUInt16BE(0) & TOKEN_MASK),
  );
  return [...tokens].sort((a, b) => a - b);
}

/** The row of `privacy_keys` holding the name index key. */
export const NAME_INDEX_KEY_NAME = 'claims-name-index';

/**
 * The service's name index key: 32 random bytes, kept wrapped by the key vault in `privacy_keys` (made once,
 * by whichever replica needs it first), so every replica indexes and searches names alike. A deployment whose
 * key was still a file (`<dataDir>/claims/name-index.key`, before the key moved to the database) stores that
 * file's key, so the tokens already indexed keep matching. Losing the key makes every token unmatchable (the
 * claims are then found by number, email or phone only, until re-indexed under a new key).
 */
export function nameIndexKey(privacy: ClaimantPrivacy, dataDir: string): SharedKey {
  return privacy.sharedKey(NAME_INDEX_KEY_NAME, () => keyFileOf(path.join(dataDir, 'claims', 'name-index.key')));
}

/** The key an earlier version kept in `file`, if it is there. */
function keyFileOf(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}

/**
 * Indexes (or re-indexes, after a change of name) a claim's name when awaited, or as one of
 * `writeTogether`'s writes. A trigger adds its set of tokens to `claimant_name_sets` (migration 0025).
 */
export function indexClaimantName(db: Knex, claimId: string, name: string, key: Buffer): PendingWrite {
  return db('claimant_name_index')
    .insert({ claim_id: claimId, tokens: db.raw('?::smallint[]', [nameTokens(name, key)]) })
    .onConflict('claim_id')
    .merge(['tokens']);
}

/**
 * Removes the claims' names from the index, and every token set no claim holds any more (that of a renamed
 * claim too). The lock keeps an intake of the same name from relying on a set this deletes: inserts into
 * `claimant_name_sets` wait for it, and it waits for those in progress.
 */
export async function forgetClaimantName(trx: Knex.Transaction, claimIds: string[]): Promise<number> {
  await trx.raw('LOCK TABLE claimant_name_sets IN SHARE ROW EXCLUSIVE MODE');
  const forgotten = await trx('claimant_name_index').whereIn('claim_id', claimIds).delete();
  await trx.raw(`DELETE FROM claimant_name_sets s WHERE NOT EXISTS (SELECT 1 FROM claimant_name_index i WHERE i.tokens = s.tokens)`);
  return forgotten;
}

/**
 * Indexes the names of the claims the index lacks (filed before migration 0025), `batch` at a time; run at
 * start (the key is read only when there is one). Returns how many it indexed.
 */
export async function indexUnindexedNames(db: Knex, nameKey: SharedKey, batch = 1000): Promise<number> {
  let indexed = 0;
  for (;;) {
    const rows: { id: string; claimant_name: string }[] = await db('claims')
      .select('claims.id', 'claims.claimant_name')
      .whereNotExists(db('claimant_name_index').select(db.raw('1')).whereRaw('claimant_name_index.claim_id = claims.id'))
      .limit(batch);
    if (rows.length === 0) return indexed;
    const key = await nameKey.on();
    await db('claimant_name_index')
      .insert(rows.map((row) => ({ claim_id: row.id, tokens: db.raw('?::smallint[]', [nameTokens(row.claimant_name, key)]) })))
      .onConflict('claim_id')
      .ignore();
    indexed += rows.length;
  }
}
