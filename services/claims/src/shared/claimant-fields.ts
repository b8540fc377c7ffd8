import { SEALED_PREFIX, isSealedText, openText, sealText } from '@platform/privacy';

/**
 * Sealing of a claimant's personal fields with their data key. The context names the column and row, so a
 * sealed value copied into another column or row does not open there. A null key writes plain text
 * (encryption off); a sealed value whose key is gone (an erased claimant) reads as null.
 */
export function sealField(key: Buffer | null, value: string, context: string): string;
export function sealField(key: Buffer | null, value: string | null, context: string): string | null;
export function sealField(key: Buffer | null, value: string | null, context: string): string | null {
  return key && value !== null ? sealText(key, value, context) : value;
}

/** A LIKE pattern matching sealed values. */
export const SEALED_PREFIX_PATTERN = `${SEALED_PREFIX}%`;

/** The columns of `row` still in plain text, sealed with `key` (each under `contextOf(column)`); none: an empty object. */
export function sealPlainColumns(
  key: Buffer,
  row: Record<string, string | null>,
  columns: readonly string[],
  contextOf: (column: string) => string,
): Record<string, string> {
  const sealed: Record<string, string> = {};
  for (const column of columns) {
    const value = row[column];
    if (value !== null && !isSealedText(value)) sealed[column] = sealText(key, value, contextOf(column));
  }
  return sealed;
}

export function openField(key: Buffer | null, value: string | null, context: string): string | null {
  if (value === null || !isSealedText(value)) return value;
  return key ? openText(key, value, context) : null;
}

/** Stand-ins for personal fields whose data key was destroyed (an erased claimant). */
export const ERASED_NAME = 'Erased claimant';
export const ERASED_TEXT = 'Erased';

export const claimFieldContext = (column: string, claimId: string) => `claims.${column}/${claimId}`;
export const updateFieldContext = (column: string, claimId: string) => `status_updates.${column}/${claimId}`;
export const reopeningReasonContext = (updateId: string) => `claim_reopenings.reason/${updateId}`;
export const kitSnapshotContext = (kitId: string) => `adjuster_kits.snapshot/${kitId}`;

/** The texts of a status update addressed to the claimant, sealed with their data key. */
export const UPDATE_TEXTS = ['what_happened', 'what_happens_next', 'what_we_need_from_you'] as const;
type UpdateTexts = { claim_id: string; what_happened: string; what_happens_next: string; what_we_need_from_you: string | null };

function mapUpdateTexts<Update extends UpdateTexts>(update: Update, map: (value: string | null, context: string) => string | null): Update {
  const mapped = { ...update };
  for (const column of UPDATE_TEXTS)
    (mapped as Record<string, unknown>)[column] = map(update[column], updateFieldContext(column, update.claim_id));
  return mapped;
}

/** The update with its texts sealed (a null key: as they are). Bound to the claim: the JSON reads of updates carry no update id. */
export function sealUpdateTexts<Update extends UpdateTexts>(key: Buffer | null, update: Update): Update {
  return mapUpdateTexts(update, (value, context) => sealField(key, value, context));
}

/** The update with its texts opened; texts whose key is gone read as "Erased" (null stays null). */
export function openUpdateTexts<Update extends UpdateTexts>(key: Buffer | null, update: Update): Update {
  return mapUpdateTexts(update, (value, context) => (value === null ? null : (openField(key, value, context) ?? ERASED_TEXT)));
}
