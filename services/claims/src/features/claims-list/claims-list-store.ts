import type { Knex } from '@platform/db';
import { ANY_OPEN_BREACH, openBreachCondition } from '../../shared/claim-deadlines';
import type { ClaimStage, LossType } from '../../shared/claim-vocabulary';
import { HAS_FAILED_DELIVERY } from '../delivery';
import { HAS_OVERDUE_ACTIVITY } from '../diary';
import { sortColumnOf, type ClaimCursor } from './claim-cursor';
import { isSealedText } from '@platform/privacy';
import { openClaimColumn } from '../../shared/claim-store';
import { ERASED_NAME } from '../../shared/claimant-fields';
import type { ClaimantKeys } from '../claimants';
import { prefixPattern } from './claim-search';
import { NAME_SIMILARITY_THRESHOLD, nameTokens } from './claimant-name-index';
import { DEFAULT_SORT, type ClaimsListQuery, type ClaimSort, type ClaimSummary, type SortColumn } from './claims-list-schemas';

interface SummaryRow {
  id: string;
  claim_number: string;
  stage: ClaimStage;
  policy_number: string;
  loss_type: LossType;
  loss_date: string;
  claimant_id: string;
  claimant_name: string;
  queue: string | null;
  assignee: string | null;
  has_open_escalation: boolean;
  estimated_amount: string | null;
  estimated_currency: string | null;
  severity: number | null;
  sort_value?: string;
  rank?: number;
  created_at: Date;
  cursor_created_at: string;
  updated_at: Date;
  next_update_due: Date | null;
}

const OPEN_ESCALATION = `EXISTS (SELECT 1 FROM escalations e WHERE e.claim_id = claims.id AND e.status = 'open')`;

/** The latest triage score of the claim (its severity), or null before triage. */
const SEVERITY = `(SELECT t.score FROM triage_runs t WHERE t.claim_id = claims.id ORDER BY t.ran_at DESC LIMIT 1)`;

/**
 * Each sort column as compared, with its cast for the cursor's value; a missing value is -1, so it comes
 * last descending and first ascending. created_at is the keyset itself.
 */
const SORT_KEYS: Record<Exclude<SortColumn, 'created_at'>, { sql: string; cast: string }> = {
  estimated_amount: { sql: 'COALESCE(estimated_amount, -1)', cast: 'numeric' },
  severity: { sql: `COALESCE(${SEVERITY}, -1)`, cast: 'integer' },
  loss_type: { sql: 'loss_type', cast: 'text' },
};

/** The list ordered by `sort` (not a search), after the cursor: (column, created_at, id) all one direction. */
function sorted(db: Knex, query: Knex.QueryBuilder, sort: ClaimSort, after: ClaimCursor | undefined): Knex.QueryBuilder {
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const comparison = direction === 'desc' ? '<' : '>';
  const column = sortColumnOf(sort);
  if (column === 'created_at') {
    if (after) query = query.whereRaw(`(created_at, id) ${comparison} (?::timestamptz, ?::uuid)`, [after.created_at, after.id]);
    return query.orderBy([
      { column: 'created_at', order: direction },
      { column: 'id', order: direction },
    ]);
  }
  const key = SORT_KEYS[column];
  query = query.select(db.raw(`${key.sql}::text AS sort_value`));
  if (after?.sorted)
    query = query.whereRaw(`(${key.sql}, created_at, id) ${comparison} (?::${key.cast}, ?::timestamptz, ?::uuid)`, [
      after.sorted.value,
      after.created_at,
      after.id,
    ]);
  return query.orderByRaw(`${key.sql} ${direction}, created_at ${direction}, id ${direction}`);
}

/**
 * A search that is a whole email or phone number, as the blind index (features/claimants) of the claimants
 * who gave it: contacts are sealed, so they are found by exact value only, never by prefix.
 */
export interface ContactMatch {
  column: 'email_index' | 'phone_index';
  index: string;
}

/** `search` is normalised (normaliseSearch), `contact` its blind index when it may be a contact; `assignee` a `sub` (`me` resolved). */
export type ClaimsListFilters = Omit<ClaimsListQuery, 'limit' | 'cursor' | 'q' | 'sort'> & { search?: string; contact?: ContactMatch };

const IDENTIFIER_PREFIXES = ['lower(claim_number)', 'lower(policy_number)'];
const CLAIMANTS_OF_CONTACT = (contact: ContactMatch) => `(SELECT id FROM claimants WHERE ${contact.column} = ?)`;
const NEWEST_FIRST: { column: string; order: 'desc' }[] = [
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
];

/** The list's filters other than the search, on a query of the claims table. */
function whereFilters(query: Knex.QueryBuilder, filters: ClaimsListFilters): Knex.QueryBuilder {
  if (filters.stage) query = query.whereIn('stage', filters.stage);
  if (filters.queue !== undefined) query = query.where('queue', filters.queue);
  if (filters.escalation === 'open') query = query.whereRaw(OPEN_ESCALATION);
  if (filters.overdue) query = query.whereRaw(filters.deadline ? openBreachCondition(filters.deadline) : ANY_OPEN_BREACH);
  if (filters.delivery_failed) query = query.whereRaw(HAS_FAILED_DELIVERY);
  if (filters.activity_overdue) query = query.whereRaw(HAS_OVERDUE_ACTIVITY);
  if (filters.created_from) query = query.where('created_at', '>=', filters.created_from);
  if (filters.created_to) query = query.where('created_at', '<', filters.created_to);
  if (filters.assignee !== undefined) query = query.where('assignee', filters.assignee);
  if (filters.unassigned) query = query.whereNull('assignee');
  return query;
}

/** The claims after a search cursor: best match first, then newest first by (created_at, id). */
function afterRanked(query: Knex.QueryBuilder, search: Search, after: ClaimCursor | undefined): Knex.QueryBuilder {
  if (!after?.search) return query;
  const ranked = rank(search);
  return query.whereRaw(`(${ranked.sql}, claims.created_at, claims.id) < (?::real, ?::timestamptz, ?::uuid)`, [
    ...ranked.bindings,
    after.search.rank,
    after.created_at,
    after.id,
  ]);
}

/** A search as the store matches it: the normalised text (normaliseSearch) and its name tokens (nameTokens). */
interface Search {
  text: string;
  tokens: number[];
  contact?: ContactMatch;
}

/**
 * The share of the search's name tokens that a token set holds, in [0, 1]: the keyed analogue of pg_trgm's
 * word similarity (which a name passes when it holds the search's trigrams; the tokens cannot say where in
 * the name they stand, so a word's trigrams scattered over two words count too).
 */
function nameSimilarity(tokens: string, search: Search): { sql: string; bindings: (number[] | number)[] } {
  return {
    sql: `((SELECT count(*) FROM unnest(${tokens}) AS token WHERE token = ANY (?::smallint[]))::real / ?::real)`,
    bindings: [search.tokens, search.tokens.length],
  };
}

/**
 * The `limit` claims with the names nearest the search, of those that pass the filters and come after the
 * cursor, nearest first, then newest first. The names are matched once each as sets of tokens in
 * `claimant_name_sets` (migration 0025): those sharing a token with the search (its GIN index) whose
 * similarity (nameSimilarity) reaches NAME_SIMILARITY_THRESHOLD, nearest first; the claims of each set come
 * from the btree on `claimant_name_index.tokens`, newest first, at most `limit` of them. PostgreSQL sorts
 * that join incrementally (it is already in order of similarity), so it stops at the first sets that fill
 * the page. The page needs no other named claim: a claim's rank is at least its name's similarity, so
 * whatever comes after these `limit` ranks after them in the page too; for the same reason a set more
 * similar than the cursor's rank has no claim after it.
 */
function nearestNames(db: Knex, search: Search, filters: ClaimsListFilters, after: ClaimCursor | undefined, limit: number): Knex.Raw {
  const similarity = nameSimilarity('sets.tokens', search);
  const sets = db('claimant_name_sets AS sets')
    .select('sets.tokens', db.raw(`${similarity.sql} AS similarity`, similarity.bindings))
    .whereRaw('sets.tokens && ?::smallint[]', [search.tokens]);
  const similar = after?.search
    ? db.raw('similarity >= ?::real AND similarity <= ?::real', [NAME_SIMILARITY_THRESHOLD, after.search.rank])
    : db.raw('similarity >= ?::real', [NAME_SIMILARITY_THRESHOLD]);
  const named = whereFilters(
    db('claimant_name_index AS named_index')
      .join('claims', 'claims.id', 'named_index.claim_id')
      .select('claims.id', 'claims.created_at')
      .whereRaw('named_index.tokens = names.tokens'),
    filters,
  );
  const newest = afterRanked(named, search, after)
    .orderBy([
      { column: 'claims.created_at', order: 'desc' },
      { column: 'claims.id', order: 'desc' },
    ])
    .limit(limit);
  return db.raw(
    `(SELECT named.id FROM (SELECT * FROM (?) AS candidate_sets WHERE ? ORDER BY similarity DESC) AS names
      CROSS JOIN LATERAL ? AS named
      ORDER BY names.similarity DESC, named.created_at DESC, named.id DESC LIMIT ?)`,
    [sets, similar, newest, limit],
  );
}

/**
 * The claims a search can find, each part served by its own index (migrations 0011, 0024, 0025): the claims
 * with the nearest names (nearestNames), a claim number or policy number starting with it, or the claims of
 * the claimants whose whole email or phone it is (their blind index). The union of those index-driven sets is all the rest of the
 * query ranks, so the table is never scanned (`id = ANY (ARRAY(…))` fetches them by primary key; a
 * semi-join was planned as a scan of the whole table once a common name made a thousand candidates).
 */
function searchCandidates(db: Knex, search: string, contact: ContactMatch | undefined, names: Knex.Raw | undefined): Knex.Raw {
  const prefix = prefixPattern(search);
  const parts: (Knex.Raw | Knex.QueryBuilder)[] = [
    ...(names ? [names] : []),
    ...IDENTIFIER_PREFIXES.map((column) => db('claims').select('id').whereRaw(`${column} LIKE ?`, [prefix])),
  ];
  if (contact)
    parts.push(
      db('claims')
        .select('id')
        .whereRaw(`claimant_id IN ${CLAIMANTS_OF_CONTACT(contact)}`, [contact.index]),
    );
  return db.raw(parts.map(() => '?').join(' UNION '), parts);
}

/**
 * How well a claim matches, in [0, 1]: 1 when a number is exactly the search or the search is the claimant's
 * whole email or phone, 0.9 when a number starts with it, else its name's similarity (nameSimilarity: 1 for
 * a whole word).
 */
function rank(search: Search): { sql: string; bindings: (string | number | number[])[] } {
  const prefix = prefixPattern(search.text);
  const exactContact = search.contact ? `OR claimant_id IN ${CLAIMANTS_OF_CONTACT(search.contact)}` : '';
  const similarity = nameSimilarity('ranked_index.tokens', search);
  const name =
    search.tokens.length === 0
      ? { sql: '0', bindings: [] }
      : {
          sql: `COALESCE((SELECT ${similarity.sql} FROM claimant_name_index AS ranked_index WHERE ranked_index.claim_id = claims.id), 0)`,
          bindings: similarity.bindings,
        };
  return {
    sql: `GREATEST(${name.sql}, CASE
        WHEN ? IN (${IDENTIFIER_PREFIXES.join(', ')}) ${exactContact} THEN 1
        WHEN ${IDENTIFIER_PREFIXES.map((column) => `${column} LIKE ?`).join(' OR ')} THEN 0.9
        ELSE 0 END::real)`,
    bindings: [...name.bindings, search.text, ...(search.contact ? [search.contact.index] : []), ...IDENTIFIER_PREFIXES.map(() => prefix)],
  };
}

/**
 * `nameKey`: the name index key (nameIndexKey), which turns a search into name tokens; `keys` open the
 * sealed names shown.
 */
export function claimsListStore(db: Knex, nameKey: Buffer, keys: ClaimantKeys) {
  return {
    /** Up to `limit` claims after `after`, newest first by (created_at, id) (best match first in a search), each with its own cursor position. */
    async page(
      filters: ClaimsListFilters,
      after: ClaimCursor | undefined,
      limit: number,
      sort: ClaimSort = DEFAULT_SORT,
    ): Promise<{ summary: ClaimSummary; position: ClaimCursor }[]> {
      let select = db('claims').select(
        'id',
        'claim_number',
        'stage',
        'policy_number',
        'loss_type',
        'claimant_id',
        'claimant_name',
        'queue',
        'assignee',
        'created_at',
        'updated_at',
        'next_update_due',
        'estimated_amount',
        'estimated_currency',
        db.raw(`${SEVERITY} AS severity`),
        db.raw(`to_char(loss_date, 'YYYY-MM-DD') AS loss_date`),
        db.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_created_at`),
        db.raw(`${OPEN_ESCALATION} AS has_open_escalation`),
      );
      select = whereFilters(select, filters);
      const search =
        filters.search === undefined
          ? undefined
          : { text: filters.search, tokens: nameTokens(filters.search, nameKey), contact: filters.contact };
      if (search !== undefined) {
        const ranked = rank(search);
        const names = search.tokens.length > 0 ? nearestNames(db, search, filters, after, limit) : undefined;
        const candidates = searchCandidates(db, search.text, search.contact, names);
        select = select.select(db.raw(`${ranked.sql} AS rank`, ranked.bindings)).whereRaw('id = ANY (ARRAY(?))', [candidates]);
        select = afterRanked(select, search, after).orderByRaw('rank DESC').orderBy(NEWEST_FIRST);
      } else {
        select = sorted(db, select, sort, after);
      }
      const rows = (await select.limit(limit)) as SummaryRow[];
      // each sealed name opened with its claimant's data key, fetched once per claimant on the page
      const sealedOf = [...new Set(rows.filter((row) => isSealedText(row.claimant_name)).map((row) => row.claimant_id))];
      const keyOf = new Map(await Promise.all(sealedOf.map(async (id) => [id, await keys.keyFor(id)] as const)));
      return rows.map((row) => ({
        summary: {
          claim_id: row.id,
          claim_number: row.claim_number,
          stage: row.stage,
          policy_number: row.policy_number,
          loss_type: row.loss_type,
          loss_date: row.loss_date,
          claimant_name: openClaimColumn('claimant_name', row.id, row.claimant_name, keyOf.get(row.claimant_id) ?? null) ?? ERASED_NAME,
          queue: row.queue,
          assignee: row.assignee,
          escalation: row.has_open_escalation ? 'open' : null,
          estimated_amount:
            row.estimated_amount === null || row.estimated_currency === null
              ? null
              : { amount: row.estimated_amount, currency: row.estimated_currency },
          severity: row.severity === null ? null : Number(row.severity),
          created_at: new Date(row.created_at).toISOString(),
          updated_at: new Date(row.updated_at).toISOString(),
          next_update_due: row.next_update_due === null ? null : new Date(row.next_update_due).toISOString(),
        },
        position: {
          created_at: row.cursor_created_at,
          id: row.id,
          ...(search !== undefined ? { search: { rank: Number(row.rank), query: search.text } } : {}),
          ...(search === undefined && sort !== DEFAULT_SORT ? { sorted: { sort, value: row.sort_value ?? '' } } : {}),
        },
      }));
    },
  };
}
