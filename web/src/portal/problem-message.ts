import type { MessageKey } from '../i18n/messages';

/** An RFC 9457 problem document as the API answers it (only the members the pages read). */
export interface Problem {
  status: number;
  title?: string;
  detail?: string;
}

export const ATTACHMENT_LIMIT_BYTES = 25 * 1024 * 1024;

/** The plain-language message for a rejected request, chosen by the problem's status. */
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
      return t('errorGeneric', { detail: problem.detail ?? problem.title ?? String(problem.status) });
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
