import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { decodeCursor, encodeCursor } from './claim-cursor';
import type { ClaimsListPage, ClaimsListQuery } from './claims-list-schemas';
import { claimsListStore } from './claims-list-store';

const DEFAULT_LIMIT = 25;

/** The claims list: one page at a time, newest first, by keyset on (created_at, id). */
export const claimsListService = () => (db: Knex) => ({
  async list(query: ClaimsListQuery): Promise<ClaimsListPage> {
    const { limit = DEFAULT_LIMIT, cursor, ...filters } = query;
    if (filters.created_from && filters.created_to && Date.parse(filters.created_from) >= Date.parse(filters.created_to)) {
      throw problems.unprocessable('created_from must be before created_to');
    }
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    const rows = await claimsListStore(db).page(filters, after, limit + 1);
    const page = rows.slice(0, limit);
    return {
      items: page.map((row) => row.summary),
      next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1].position) : null,
    };
  },
});
