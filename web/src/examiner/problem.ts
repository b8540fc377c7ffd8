/** The words shown for a rejected request: the problem document's detail or title, else its status. */
export function problemText(problem: unknown, status?: number): string {
  const body = (problem ?? {}) as { detail?: string; title?: string; status?: number };
  return body.detail ?? body.title ?? `The request failed (${status ?? body.status ?? 'network error'}).`;
}
