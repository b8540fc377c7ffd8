import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * How deeply a value may nest before canonicalisation (which recurses) refuses it: room for any accepted
 * JSON body (64 levels, MAX_JSON_DEPTH of @platform/http) and the envelopes put around it (audit records,
 * manifests), far short of a stack overflow.
 */
export const MAX_VALUE_DEPTH = 256;

/** Throws a RangeError when `value` nests arrays and objects deeper than MAX_VALUE_DEPTH; iterative, so safe on any value. */
function assertNestingWithinLimit(value: unknown): void {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (!current || typeof current !== 'object') continue;
    if (depth >= MAX_VALUE_DEPTH) throw new RangeError(`the value nests deeper than ${MAX_VALUE_DEPTH} levels`);
    for (const item of Object.values(current)) pending.push({ value: item, depth: depth + 1 });
  }
}

/** RFC 8785 (JCS) canonical JSON: the exact bytes a digest or signature covers. */
export function canonicalJson(value: unknown): string {
  assertNestingWithinLimit(value); // canonicalize recurses: a hostile depth would overflow the stack
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('the value has no JSON representation');
  return text;
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of `value`: the same on any machine, in any key order. */
export function canonicalSha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
