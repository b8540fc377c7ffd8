import type { MessageKey } from '../i18n/messages';
import { formatBytes } from '../i18n/format';

/**
 * The one place a rejected request becomes words: an RFC 9457 problem document (only the members the pages
 * read) said to staff (`problemText`) or to a claimant in their language (`problemMessage`).
 */
export interface Problem {
  status: number;
  title?: string;
  detail?: string;
  errors?: { pointer?: string; message?: string }[];
}

export const ATTACHMENT_LIMIT_BYTES = 25 * 1024 * 1024;

/** A response body as a problem with the response's status (a body that is not JSON keeps only the status). */
export function problemOf(body: unknown, status: number): Problem {
  return { ...(typeof body === 'object' && body !== null ? body : {}), status };
}

/** The problem's own words: its detail, else its title, else `fallback`. */
export function problemDetail(problem: Partial<Problem> | null | undefined, fallback: string): string {
  return problem?.detail ?? problem?.title ?? fallback;
}

/** What a scope means to a person, for a refusal that names one. */
const SCOPE_WORDS: Record<string, string> = {
  'evidence:write': 'preparing evidence',
  'evidence:approve': 'approving runs',
  'audit:read': 'examining the audit log',
};

/**
 * The words shown to staff for a rejected request: the problem document's detail or title, else its status
 * (none: a network error). A refusal for a missing scope is said as a sentence about the person's sign-in,
 * not as the scope check.
 */
export function problemText(problem: unknown, status?: number): string {
  const body = (problem ?? {}) as Partial<Problem>;
  const code = status ?? body.status;
  if (code === 403 && /requires (the|one of the scopes)/.test(body.detail ?? '')) {
    const needed = Object.keys(SCOPE_WORDS).filter((scope) => body.detail!.includes(scope));
    const what = needed.map((scope) => SCOPE_WORDS[scope]).join(' or ');
    return `Your sign-in does not include ${what || 'this'}; someone who does can do it, or ask for that access.`;
  }
  return problemDetail(body, `The request failed (${code ?? 'network error'}).`);
}

/** The claimant's plain-language message for a rejected request, chosen by the problem's status (null: no answer). */
export function problemMessage(problem: Problem | null, t: (key: MessageKey, values?: Record<string, string | number>) => string): string {
  if (!problem) return t('errorNetwork');
  switch (problem.status) {
    case 413:
      return t('errorTooBig', { limit: formatBytes(ATTACHMENT_LIMIT_BYTES) });
    case 415:
      return t('errorWrongType');
    case 409:
      return t('errorClosed');
    case 429:
      return t('errorTooMany');
    default:
      return t('errorGeneric', { detail: problemDetail(problem, String(problem.status)) });
  }
}
