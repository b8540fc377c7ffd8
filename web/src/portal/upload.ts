import type { Problem } from './problem-message';

export type UploadResult =
  { ok: true; attachments: { attachment_id: string; filename: string; duplicate: boolean }[] } | { ok: false; problem: Problem | null };

/**
 * POSTs files to a claim's attachments with XMLHttpRequest, the one browser API that reports upload
 * progress (fetch does not); `onProgress` gets 0–100. A network failure resolves with problem null.
 */
export function uploadAttachments(
  claimId: string,
  token: string,
  files: readonly File[],
  documentType: string,
  onProgress: (percent: number) => void,
): Promise<UploadResult> {
  const form = new FormData();
  form.append('document_type', documentType);
  for (const file of files) form.append('file', file, file.name);
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/claims/public/claims/${encodeURIComponent(claimId)}/attachments`);
    request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status === 201) return resolve({ ok: true, attachments: (body as { attachments: [] }).attachments });
      resolve({ ok: false, problem: { status: request.status, ...(body as object | null) } });
    };
    request.onerror = () => resolve({ ok: false, problem: null });
    request.send(form);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
