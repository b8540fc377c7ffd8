/** A BCP 47 language tag (shape only; `normaliseLanguageTag` canonicalises and rejects invalid tags). */
export const LANGUAGE_TAG_PATTERN = '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$';

/** Canonical BCP 47 form (`en-us` → `en-US`), or undefined when the tag is not well-formed. */
export function normaliseLanguageTag(tag: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical;
  } catch {
    return undefined;
  }
}
