import { findRefusedText } from './body';

/**
 * Bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069): they reorder the
 * characters a reader sees, so a title, an assignee or a rationale could show something other than what
 * was stored (Trojan Source, CVE-2021-42574). Direction marks (U+200E/F) and joiners stay: right-to-left
 * names and emoji need them, and they reorder nothing around them.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/gu;

const holdsBidiControl = (text: string) => text.search(BIDI_CONTROLS) !== -1;

/**
 * The platform's one rule for free text a person reads: it arrives without bidirectional controls. The
 * JSON Pointer of the first string (value or key) that holds one, or undefined.
 */
export function findDisguisingText(value: unknown): string | undefined {
  return findRefusedText(value, holdsBidiControl);
}

/** Text as it may be shown to a person: free text stored before the rule existed loses its bidirectional controls. */
export function displayText(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
