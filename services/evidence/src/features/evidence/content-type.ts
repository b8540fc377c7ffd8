import { detectType } from '@platform/files';

/** What file evidence may be, judged by its bytes: these by their magic numbers, or valid UTF-8 text. */
const ACCEPTED_BINARY_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'application/zip']);
export const ACCEPTED_TYPES_TEXT = 'PDF, PNG, JPEG, ZIP, or UTF-8 text (CSV, JSON, plain)';
/** The file name extensions each accepted type may carry; the first is the type's own. */
export const EXTENSIONS_BY_TYPE: Record<string, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'application/zip': ['zip'],
  'text/csv': ['csv'],
  'application/json': ['json'],
  'text/plain': ['txt'],
};
export interface SniffedBytes {
  /** The first SNIFF_BYTES bytes (@platform/files). */
  head: Buffer;
  /** The whole file is valid UTF-8 without NUL bytes. */
  utf8Text: boolean;
  fileName?: string;
  declaredType?: string;
}

/**
 * The content type of the bytes, or undefined when they are not an accepted type. Text has no magic
 * number: it is accepted when every byte is valid UTF-8, and the name or declared type only chooses
 * between text/csv, application/json and text/plain.
 */
export async function contentTypeOf(bytes: SniffedBytes): Promise<string | undefined> {
  const detected = await detectType(bytes.head);
  if (detected) return ACCEPTED_BINARY_TYPES.has(detected.mime) ? detected.mime : undefined;
  if (!bytes.utf8Text) return undefined;
  const name = bytes.fileName?.toLowerCase() ?? '';
  const declared = bytes.declaredType?.toLowerCase() ?? '';
  if (declared === 'text/csv' || name.endsWith('.csv')) return 'text/csv';
  if (declared === 'application/json' || name.endsWith('.json')) return 'application/json';
  return 'text/plain';
}
