export type UploadOutcome = { ok: true } | { ok: false; status: number; problem: unknown };

/**
 * POSTs a multipart form with XMLHttpRequest, the one browser API that reports upload progress (fetch
 * does not); `onProgress` gets 0–100. A network failure resolves with status 0.
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
      if (request.status >= 200 && request.status < 300) return resolve({ ok: true });
      resolve({ ok: false, status: request.status, problem: parseJson(request.responseText) });
    };
    request.onerror = () => resolve({ ok: false, status: 0, problem: null });
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
