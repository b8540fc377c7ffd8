import { problemOf, type Problem } from './problem';

export type UploadOutcome = { ok: true; body: unknown } | { ok: false; problem: Problem | null };

/**
 * POSTs a multipart form with the bearer token through XMLHttpRequest, the one browser API that reports
 * upload progress (fetch does not); `onProgress` gets 0–100. A refusal resolves with its problem document,
 * a network failure with problem null.
 */
export function postFormWithProgress(
  url: string,
  token: string,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) return resolve({ ok: true, body });
      resolve({ ok: false, problem: problemOf(body, request.status) });
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
