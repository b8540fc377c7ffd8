import { useInvalidate } from '../../api/queries';
import { claimChanges, claimKeys, useClaimNotes } from './claim-api';
import type { WorkbenchSession } from '../session';
import { ErrorAlert } from './claim-file';
import { problemDetail } from '../../api/problem';
import { NotesPanel } from './NotesPanel';

/** The claim's internal notes, newest first, a page at a time. */
export function NotesSection({ claimId, session }: { claimId: string; session: WorkbenchSession }) {
  const invalidate = useInvalidate();
  const notes = useClaimNotes(claimId, session);
  const onAdd = async (body: { body: string; topic?: string; corrects?: string }) => {
    const { error } = await claimChanges(claimId, session).addNote(body);
    if (error) throw new Error(problemDetail(error, 'The note could not be saved'));
    await invalidate(claimKeys.notes(claimId));
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
