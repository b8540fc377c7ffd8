/** What a scope means to a person, for a refusal that names one. */
const SCOPE_WORDS: Record<string, string> = {
  'evidence:write': 'preparing evidence',
  'evidence:approve': 'approving runs',
  'audit:read': 'examining the audit log',
};

/**
 * The words shown for a rejected request: the problem document's detail or title, else its status. A
 * refusal for a missing scope is said as a sentence about the person's sign-in, not as the scope check.
 */
export function problemText(problem: unknown, status?: number): string {
  const body = (problem ?? {}) as { detail?: string; title?: string; status?: number };
  if ((status ?? body.status) === 403 && /requires (the|one of the scopes)/.test(body.detail ?? '')) {
    const needed = Object.keys(SCOPE_WORDS).filter((scope) => body.detail!.includes(scope));
    const what = needed.map((scope) => SCOPE_WORDS[scope]).join(' or ');
    return `Your sign-in does not include ${what || 'this'}; someone who does can do it, or ask for that access.`;
  }
  return body.detail ?? body.title ?? `The request failed (${status ?? body.status ?? 'network error'}).`;
}
