import type { Principal } from '@platform/auth';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { decodeCursor, encodeCursor } from './claim-cursor';
import { DEFAULT_SORT, type ClaimsListPage, type ClaimsListQuery } from './claims-list-schemas';
import { claimsListStore, type ContactMatch } from './claims-list-store';
import type { ClaimantPrivacy, SharedKey } from '../claimants';
import { DIGITS, normaliseSearch } from './claim-search';

const DEFAULT_LIMIT = 25;

/**
 * The blind index a search would have as a contact: a search of digits as a phone (normaliseSearch reduced
 * it), one with an `@` as an email. Contacts are sealed, so only the whole email or phone finds them.
 */
async function contactMatchOf(search: string, privacy: ClaimantPrivacy): Promise<ContactMatch | undefined> {
  if (DIGITS.test(search)) return { column: 'phone_index', index: await privacy.phoneIndex(search) };
  if (search.includes('@')) return { column: 'email_index', index: await privacy.emailIndex(search) };
  return undefined;
}

/** The claims list: one page at a time, newest first (best match first in a search), by keyset. */
export const claimsListService = (nameKey: SharedKey, privacy: ClaimantPrivacy) => (db: Knex) => ({
  async list(query: ClaimsListQuery, caller: Principal): Promise<ClaimsListPage> {
    const { limit = DEFAULT_LIMIT, cursor, q, assignee, sort = DEFAULT_SORT, ...filters } = query;
    if (filters.created_from && filters.created_to && Date.parse(filters.created_from) >= Date.parse(filters.created_to)) {
      throw problems.unprocessable('created_from must be before created_to');
    }
    if (assignee !== undefined && filters.unassigned) throw problems.unprocessable('assignee and unassigned=true exclude each other');
    if (q !== undefined && sort !== DEFAULT_SORT)
      throw problems.unprocessable('A search is ranked best match first: send sort or q, not both');
    if (filters.deadline && !filters.overdue) throw problems.unprocessable('deadline narrows overdue=true; send both');
    const search = q === undefined ? undefined : normaliseSearch(q);
    const after = cursor === undefined ? undefined : decodeCursor(cursor, search, sort);
    const contact = search === undefined ? undefined : await contactMatchOf(search, privacy);
    const rows = await claimsListStore(db, await nameKey.on(db), privacy.keys).page(
      { ...filters, assignee: assignee === 'me' ? caller.sub : assignee, search, contact },
      after,
      limit + 1,
      sort,
    );
    const shown = rows.slice(0, limit);
    return {
      items: shown.map((row) => row.summary),
      next_cursor: rows.length > limit ? encodeCursor(shown[shown.length - 1].position) : null,
    };
  },
});
