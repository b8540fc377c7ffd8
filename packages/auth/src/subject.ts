/** Control, format and separator characters: NUL, tabs, zero-width spaces and joiners, bidirectional controls. */
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Scripts whose letters pass for Latin ones (Cyrillic `а`, Greek `ο`): mixed with Latin in one subject, a disguise. */
const LATIN = /\p{Script=Latin}/u;
const LATIN_LOOKALIKES = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}]/u;

/**
 * A token's subject as the platform holds it: NFKC-normalised and trimmed, or undefined when it cannot name a
 * person unambiguously — empty, holding a control or format character (NUL, tab, zero-width, bidi), or mixing
 * Latin with a script of Latin look-alikes. Applied once, at authentication.
 */
export function normaliseSubject(raw: string): string | undefined {
  const subject = raw.normalize('NFKC').trim();
  if (subject === '' || INVISIBLE_OR_CONTROL.test(subject)) return undefined;
  if (LATIN.test(subject) && LATIN_LOOKALIKES.test(subject)) return undefined;
  return subject;
}

/** Combining diacritical marks, which the key drops (the same range as subjectKeySql's). */
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/**
 * Lower-case letters of other scripts (and Latin's dotless i) that pass for Latin ones, and the Latin letter
 * each passes for: the key's skeleton, so a subject written wholly in look-alikes (Cyrillic `асе`) is the
 * Latin one (`ace`). Mixed with Latin in one subject they are refused outright (normaliseSubject).
 */
const LOOKALIKES = 'аеорсухіјѕԁһӏԛԝүαορνικυχϲϳօսհոı';
const LATIN_THEY_PASS_FOR = 'aeopcyxijsdhlqwyaopvikuxcjouhni';

/**
 * The key of a subject for segregation of duties, in JavaScript (the examiner desk's hint, tests): the same
 * rule as subjectKeySql — compatibility decomposition, combining marks dropped, lower case, look-alikes as
 * the Latin letters they pass for.
 */
export function subjectKey(subject: string): string {
  const folded = subject.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
  return Array.from(folded, (c) => {
    const at = LOOKALIKES.indexOf(c);
    return at < 0 ? c : LATIN_THEY_PASS_FOR[at];
  }).join('');
}

/** Whether two subjects count as one person for segregation of duties (subjectKey equal). */
export function sameSubject(a: string, b: string): boolean {
  return subjectKey(a) === subjectKey(b);
}

/**
 * Two subjects name the same person for segregation of duties when their keys are equal: compatibility
 * decomposition, combining marks dropped, lower case, look-alike letters as Latin (OIDC `sub` is case-sensitive, but `ALICE` and `alicé`
 * must not count as a second person beside `alice`). Computed by PostgreSQL on both sides of a comparison,
 * so one rule decides, in the decision and in the approval queue alike.
 */
export function subjectKeySql(expression: string): string {
  return `translate(lower(regexp_replace(normalize(${expression}, NFKD), '[\\u0300-\\u036f]', '', 'g')), '${LOOKALIKES}', '${LATIN_THEY_PASS_FOR}')`;
}
