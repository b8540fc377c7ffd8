import type { Principal } from '@platform/auth';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { decodeCursor, encodeCursor } from './claim-cursor';
import type { ClaimsListPage, ClaimsListQuery } from './claims-list-schemas';
import { claimsListStore } from './claims-list-store';
import { normaliseSearch } from './claim-search';

const DEFAULT_LIMIT = 25;

/** The claims list: one page at a time, newest first (best match first in a search), by keyset. */
export const claimsListService = () => (db: Knex) => ({
  async list(query: ClaimsListQuery, caller: Principal): Promise<ClaimsListPage> {
    const { limit = DEFAULT_LIMIT, cursor, q, assignee, ...filters } = query;
    if (filters.created_from && filters.created_to && Date.parse(filters.created_from) >= Date.parse(filters.created_to)) {
      throw problems.unprocessable('created_from must be before created_to');
    }
    if (assignee !== undefined && filters.unassigned) throw problems.unprocessable('assignee and unassigned=true exclude each other');
    if (filters.deadline && !filters.overdue) throw problems.unprocessable('deadline narrows overdue=true; send both');
    const search = q === undefined ? undefined : normaliseSearch(q);
    const after = cursor === undefined ? undefined : decodeCursor(cursor, search);
    const rows = await claimsListStore(db).page(
      { ...filters, assignee: assignee === 'me' ? caller.sub : assignee, search },
      after,
      limit + 1,
    );
    const page = rows.slice(0, limit);
    return {
      items: page.map((row) => row.summary),
      next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1].position) : null,
    };
  },
});
