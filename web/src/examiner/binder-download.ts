/**
 * Downloads a binder's zip. The link needs the bearer token, which a plain <a href> cannot send, so the
 * zip is fetched and handed to the browser as a file through an object URL.
 */
export async function downloadBinder(
  binderId: string,
  token: string,
): Promise<{ ok: true } | { ok: false; status: number; problem: unknown }> {
  const response = await fetch(`/api/evidence/binder-archives/${encodeURIComponent(binderId)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok) return { ok: false, status: response.status, problem: await response.json().catch(() => null) };
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `binder-${binderId}.zip`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { ok: true };
}
