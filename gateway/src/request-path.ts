/**
 * The gateway decides where a request goes, and whether it needs a token, on the NORMALISED path — and
 * forwards exactly that normalised path, so the service routes on what the gateway decided on.
 *
 * Normalising: every segment is percent-decoded once (invalid escapes, encoded `/` or `\`, control
 * characters incl. NUL, and any encoded `%` — double encoding — are refused), empty segments (`//`) are
 * dropped, `.` and `..` are resolved (never above the root), and the result is re-encoded segment by
 * segment. The group decision lowercases ASCII letters only; the forwarded path carries the canonical
 * lowercase prefix and the rest of the path as sent.
 */
export type NormalisedPath = { ok: true; path: string } | { ok: false; reason: string };

/** RFC 3986 `pchar`s, `/` and `%`: anything else in a raw path must have been percent-encoded. */
const RAW_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const NEEDS_ENCODING = /[^A-Za-z0-9\-._~!$&'()*+,;=:@]/gu;

const refuse = (reason: string): NormalisedPath => ({ ok: false, reason });

function encodeSegment(segment: string): string {
  return segment.replace(NEEDS_ENCODING, (char) => encodeURIComponent(char));
}

/** Something to decode (`%`), an empty segment (`//`) or a possible dot-segment (`/.`): without any, a path is already normal. */
const NEEDS_RESOLVING = /%|\/\/|\/\./;

export function normalisePath(rawPath: string): NormalisedPath {
  if (!rawPath.startsWith('/')) return refuse('The request target must be an absolute path');
  if (rawPath.includes('\\')) return refuse('The path must not contain a backslash');
  if (!RAW_PATH.test(rawPath)) return refuse('The path contains characters that must be percent-encoded');
  // Most paths: resolving their segments would give them back as they are (a test holds the two to that).
  if (!NEEDS_RESOLVING.test(rawPath)) return { ok: true, path: rawPath };
  return resolveSegments(rawPath);
}

/** Decodes, checks, resolves and re-encodes a path (absolute, no backslash, only RAW_PATH's characters) segment by segment. */
export function resolveSegments(rawPath: string): NormalisedPath {
  const rawSegments = rawPath.slice(1).split('/');
  /** The resolved segments, already re-encoded. */
  const segments: string[] = [];
  let directory = false;
  for (const [index, raw] of rawSegments.entries()) {
    // Without a `%`, a segment that passed RAW_PATH decodes to itself and re-encodes to itself.
    let segment = raw;
    if (raw.includes('%')) {
      try {
        segment = decodeURIComponent(raw);
      } catch {
        return refuse('The path contains invalid percent-encoding');
      }
      if (segment.includes('/') || segment.includes('\\')) return refuse('The path must not contain an encoded slash or backslash');
      if (CONTROL.test(segment)) return refuse('The path must not contain control characters');
      if (segment.includes('%')) return refuse('The path must not contain an encoded percent sign (double encoding)');
    }
    const last = index === rawSegments.length - 1;
    if (segment === '' || segment === '.' || segment === '..') {
      if (segment === '..') segments.pop();
      if (last) directory = true;
      continue;
    }
    segments.push(segment === raw ? raw : encodeSegment(segment));
  }
  const path = `/${segments.join('/')}${directory && segments.length > 0 ? '/' : ''}`;
  return { ok: true, path };
}

export type Upstream = 'claims' | 'evidence';
export type AccessGroup = 'public' | 'internal';

export interface ApiRoute {
  upstream: Upstream;
  group: AccessGroup;
  /** The normalised path with its prefix in canonical (lowercase) form: what the service receives. */
  path: string;
}

const ROUTES: { prefix: string; upstream: Upstream; group: AccessGroup }[] = [
  { prefix: '/api/claims/public/', upstream: 'claims', group: 'public' },
  { prefix: '/api/claims', upstream: 'claims', group: 'internal' },
  { prefix: '/api/evidence', upstream: 'evidence', group: 'internal' },
];

const asciiLowerCase = (value: string) => value.replace(/[A-Z]/g, (char) => char.toLowerCase());

/** Where a normalised path goes and which group it is in; undefined outside `/api/claims` and `/api/evidence`. */
export function classifyPath(normalisedPath: string): ApiRoute | undefined {
  const lower = asciiLowerCase(normalisedPath);
  for (const { prefix, upstream, group } of ROUTES) {
    const under = prefix.endsWith('/') ? lower.startsWith(prefix) : lower === prefix || lower.startsWith(`${prefix}/`);
    if (under) return { upstream, group, path: prefix + normalisedPath.slice(prefix.length) };
  }
  return undefined;
}
