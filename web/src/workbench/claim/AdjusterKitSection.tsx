import { useMutation } from '@tanstack/react-query';
import type { WorkbenchSession } from '../session';
import { downloadObjectUrl } from './AttachmentsSection';
import { ErrorAlert } from './claim-file';
import { claimChanges } from './claim-api';
import { problemDetail } from '../../api/problem';

/** Generates a kit (it holds the claim's personal data: generated with the purpose given for the claim, if any). */
export function AdjusterKitSection({ claimId, session, purpose }: { claimId: string; session: WorkbenchSession; purpose: string | null }) {
  const generate = useMutation({
    mutationFn: async () => {
      const { data, error } = await claimChanges(claimId, session).generateKit(purpose);
      if (error) throw new Error(problemDetail(error, 'The kit could not be generated'));
      downloadObjectUrl(
        URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })),
        `adjuster-kit-${data.kit_id}.json`,
      );
      return data;
    },
  });
  return (
    <section aria-labelledby="adjuster-kit">
      <h2 id="adjuster-kit">Adjuster kit</h2>
      <button type="button" onClick={() => generate.mutate()} disabled={generate.isPending}>
        Generate and download the adjuster kit
      </button>
      {generate.data && <p role="status">Kit generated {new Date(generate.data.generated_at).toLocaleString('en-GB')}</p>}
      <ErrorAlert error={generate.error} />
    </section>
  );
}
