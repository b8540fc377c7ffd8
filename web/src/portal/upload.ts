import { postFormWithProgress } from '../api/upload';
import type { Problem } from '../api/problem';

export type UploadResult =
  { ok: true; attachments: { attachment_id: string; filename: string; duplicate: boolean }[] } | { ok: false; problem: Problem | null };

/** POSTs files to a claim's attachments, reporting progress (0–100); a network failure resolves with problem null. */
export async function uploadAttachments(
  claimId: string,
  token: string,
  files: readonly File[],
  documentType: string,
  onProgress: (percent: number) => void,
): Promise<UploadResult> {
  const form = new FormData();
  form.append('document_type', documentType);
  for (const file of files) form.append('file', file, file.name);
  const outcome = await postFormWithProgress(
    `/api/claims/public/claims/${encodeURIComponent(claimId)}/attachments`,
    token,
    form,
    onProgress,
  );
  if (!outcome.ok) return outcome;
  return { ok: true, attachments: (outcome.body as { attachments: [] }).attachments };
}
