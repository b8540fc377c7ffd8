import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * Reads the queries under the given keys again (each key from its feature's key factory, e.g.
 * `claimKeys.contacts(claimId)`): the one way a page or section says what a change made stale.
 */
export function useInvalidate() {
  const queryClient = useQueryClient();
  return async (...keys: QueryKey[]) => {
    await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  };
}

/** The paging of a list the API pages forward by cursor (`next_cursor`), for `useInfiniteQuery`. */
export const forwardByCursor = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page: { next_cursor?: string | null }) => page.next_cursor ?? undefined,
};
