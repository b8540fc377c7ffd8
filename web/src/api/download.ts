export type Fetched<T> = { ok: true; value: T } | { ok: false; status: number; problem: unknown };

/** A GET with the bearer token; a refusal as its status and problem document. */
async function fetchWithToken(url: string, token: string, headers: Record<string, string> = {}): Promise<Fetched<Response>> {
  const response = await fetch(url, { headers: { ...headers, Authorization: `Bearer ${token}` } });
  if (!response.ok) return { ok: false, status: response.status, problem: await response.json().catch(() => null) };
  return { ok: true, value: response };
}

/** The file name a `Content-Disposition: attachment` names (its UTF-8 `filename*`, else `filename`), or null. */
export function attachmentName(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // a malformed escape: fall back to the plain name
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
}

/**
 * Downloads what `url` answers as a file. The request needs the bearer token, which a plain <a href> cannot
 * send, so the bytes are fetched and handed to the browser through an object URL, under the name the
 * service's Content-Disposition gives (else `fallbackName`). `headers` go with it (an Access-Purpose, say).
 */
export async function downloadWithToken(
  url: string,
  token: string,
  fallbackName: string,
  headers: Record<string, string> = {},
): Promise<Fetched<string>> {
  const fetched = await fetchWithToken(url, token, headers);
  if (!fetched.ok) return fetched;
  const name = attachmentName(fetched.value.headers.get('Content-Disposition')) ?? fallbackName;
  const objectUrl = URL.createObjectURL(await fetched.value.blob());
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  return { ok: true, value: name };
}

/** Reads what `url` answers as text (a note's or record's stored JSON). */
export async function textWithToken(url: string, token: string): Promise<Fetched<string>> {
  const fetched = await fetchWithToken(url, token);
  if (!fetched.ok) return fetched;
  return { ok: true, value: await fetched.value.text() };
}
