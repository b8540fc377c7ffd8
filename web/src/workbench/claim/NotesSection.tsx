import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { authHeader, type WorkbenchSession } from '../session';
import { ErrorAlert, problemText } from './claim-file';
import { NotesPanel } from './NotesPanel';

/** The claim's internal notes, newest first, a page at a time. */
export function NotesSection({ claimId, session }: { claimId: string; session: WorkbenchSession }) {
  const queryClient = useQueryClient();
  const notes = useInfiniteQuery({
    queryKey: ['notes', claimId],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const { data, error } = await api.GET('/api/claims/claims/{id}/notes', {
        params: { path: { id: claimId }, query: pageParam ? { cursor: pageParam } : {} },
        headers: authHeader(session),
      });
      if (error) throw new Error(problemText(error, 'The notes could not be loaded'));
      return data;
    },
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  const onAdd = async (body: { body: string; topic?: string; corrects?: string }) => {
    const { error } = await api.POST('/api/claims/claims/{id}/notes', {
      params: { path: { id: claimId } },
      headers: authHeader(session),
      body,
    });
    if (error) throw new Error(problemText(error, 'The note could not be saved'));
    await queryClient.invalidateQueries({ queryKey: ['notes', claimId] });
  };
  if (notes.error) return <ErrorAlert error={notes.error} />;
  return (
    <NotesPanel
      notes={notes.data?.pages.flatMap((page) => page.items) ?? []}
      onAdd={onAdd}
      hasMore={notes.hasNextPage}
      onMore={() => void notes.fetchNextPage()}
    />
  );
}
