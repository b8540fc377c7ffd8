import type { Response } from 'express';

/**
 * Unicode control (Cc) and format (Cf) characters — bidirectional overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), direction marks (U+200E/F), zero-width characters — and line/paragraph separators.
 * In a file name they disguise it: `invoice\u202Egnp.exe` displays as `invoiceexe.png`.
 */
const DISGUISING_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const MAX_FILE_NAME_CHARS = 255;

/**
 * A client's file name as it may be shown: its last path segment, without control or format characters,
 * trimmed, at most 255 characters; undefined when nothing usable is left. The one place such names are
 * cleaned, for every file the services accept and serve.
 */
export function displayFileName(raw: string | undefined): string | undefined {
  const lastSegment = raw?.split(/[\\/]/).pop() ?? '';
  const visible = lastSegment.replace(DISGUISING_CHARACTERS, '').trim();
  const bounded = [...visible].slice(0, MAX_FILE_NAME_CHARS).join('').trim();
  return bounded === '' || bounded === '.' || bounded === '..' ? undefined : bounded;
}

/** `attachment; filename="…"` with an RFC 5987 `filename*` for names that are not plain ASCII. */
export function attachmentDisposition(fileName: string): string {
  const name = displayFileName(fileName) ?? 'download';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Headers of every file download: always saved, never shown inline, and never sniffed into another type —
 * an uploaded file must not run as HTML or script in the reader's browser.
 */
export function setDownloadHeaders(res: Response, file: { contentType: string; fileName: string; size?: number }): void {
  res.setHeader('Content-Type', file.contentType);
  if (file.size !== undefined) res.setHeader('Content-Length', String(file.size));
  res.setHeader('Content-Disposition', attachmentDisposition(file.fileName));
  res.setHeader('X-Content-Type-Options', 'nosniff');
}
