import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { assertNestingWithinLimit } from '@platform/http';

/** RFC 8785 canonical JSON: the exact bytes a digest covers. */
export function canonicalJson(value: unknown): string {
  assertNestingWithinLimit(value); // canonicalize recurses: a hostile depth would overflow the stack
  const text = canonicalize(value);
  if (text === undefined) throw new Error('Value has no JSON representation');
  return text;
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of `value`: the same on any machine, any key order. */
export function canonicalSha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
