/** The query of a newest-first list: how many items a page holds, and where the previous page ended. */
export const pageQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: '`next_cursor` of the previous page' },
  },
} as const;

/** One page of a newest-first list of `item`s: the items, and the cursor of the next page (null on the last). */
export function newestFirstPage<const Item extends object>(item: Item) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'next_cursor'],
    properties: {
      items: { type: 'array', items: item, description: 'Newest first' },
      next_cursor: { type: ['string', 'null'] },
    },
  } as const;
}
