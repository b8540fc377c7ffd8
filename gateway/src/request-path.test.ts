import { posix } from 'node:path';
import fc from 'fast-check';
import { classifyPath, normalisePath, resolveSegments } from './request-path';

/**
 * An independent, deliberately paranoid reading of a raw path: decoded up to three times, backslashes
 * as slashes, dot-segments resolved, slashes collapsed, lower case. Whatever the gateway lets into the
 * public group without credentials must be public under this reading too.
 */
function paranoidlyPublic(raw: string): boolean {
  let path = raw;
  for (let i = 0; i < 3; i++) {
    try {
      path = decodeURIComponent(path);
    } catch {
      return false;
    }
  }
  // `/api/claims/public/.` is the public prefix itself (a directory): posix.normalize drops its slash
  return `${posix.normalize(path.replace(/\\/g, '/').replace(/\/+/g, '/')).toLowerCase()}/`.startsWith('/api/claims/public/');
}

const TOKENS = [
  'api',
  'API',
  'claims',
  'Claims',
  'public',
  'PUBLIC',
  'Public',
  'evidence',
  'runs',
  'x',
  '..',
  '.',
  '%2e',
  '%2E',
  '%2e%2e',
  '.%2e',
  '%2f',
  '%2F',
  '%5c',
  '\\',
  '/',
  '//',
  ';',
  '%3b',
  ';x',
  '?',
  '%3f',
  '%00',
  '%0a',
  '%25',
  '%252e',
  '%25252e',
  '%2525',
  '%c0%ae',
  '%ff',
  '%',
  '%zz',
  '%7e',
  'é',
  '%C3%A9',
  '\u212a',
  'publi%63',
  '%70ublic',
  '#',
  ' ',
];
const rawPath = fc
  .array(fc.constantFrom(...TOKENS), { maxLength: 12 })
  .chain((tokens) =>
    fc
      .array(fc.constantFrom('/', '', '//'), { minLength: tokens.length, maxLength: tokens.length })
      .map((separators) => `/${tokens.map((t, i) => t + separators[i]).join('')}`),
  );
const prefixed = fc
  .tuple(fc.constantFrom('/api/claims/public/', '/API/Claims/Public/', '/api/claims/', '/api/evidence/', '/'), rawPath)
  .map(([prefix, path]) => prefix + path.slice(1));

describe('request path normalisation', () => {
  it('never puts a path in the public group that a paranoid decoding would not', () => {
    fc.assert(
      fc.property(fc.oneof(rawPath, prefixed), (raw) => {
        const normalised = normalisePath(raw);
        if (!normalised.ok) return;
        const route = classifyPath(normalised.path);
        if (route?.group === 'public') expect(paranoidlyPublic(raw)).toBe(true);
      }),
      { numRuns: 5000, seed: 20261122 },
    );
  });

  it('forwards a path that is its own normal form and keeps its group (what the service sees is what was decided)', () => {
    fc.assert(
      fc.property(fc.oneof(rawPath, prefixed), (raw) => {
        const normalised = normalisePath(raw);
        if (!normalised.ok) return;
        const route = classifyPath(normalised.path);
        if (!route) return;
        const again = normalisePath(route.path);
        expect(again).toEqual({ ok: true, path: route.path });
        expect(classifyPath(route.path)).toEqual(route);
        expect(route.path.startsWith(route.group === 'public' ? '/api/claims/public/' : `/api/${route.upstream}`)).toBe(true);
      }),
      { numRuns: 5000, seed: 20261123 },
    );
  });

  it('answers a path with nothing to resolve as resolving it segment by segment would', () => {
    const plain = fc
      .array(fc.constantFrom('api', 'claims', 'public', 'x', '.well-known', 'a.b', '..x', ';', '~', ''), { maxLength: 8 })
      .map((segments) => `/${segments.join('/')}`);
    fc.assert(
      fc.property(fc.oneof(plain, rawPath, prefixed), (raw) => {
        const resolvable = raw.startsWith('/') && !raw.includes('\\') && /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/.test(raw);
        if (resolvable) expect(normalisePath(raw)).toEqual(resolveSegments(raw));
      }),
      { numRuns: 5000, seed: 20261127 },
    );
  });

  it.each([
    ['/api/claims/public/%2525252e%2525252e/claims'],
    ['/api/claims/public/%25252e%25252e/claims'],
    ['/api/claims/public/%25zz'],
    ['/api/claims/public/%25'],
  ])('refuses any encoded percent sign (double encoding): %s', (raw) => {
    expect(normalisePath(raw)).toMatchObject({ ok: false });
  });

  it('does not fold Unicode look-alikes into ASCII letters (the Kelvin sign is not a k)', () => {
    const normalised = normalisePath('/api/claims/public/%E2%84%AA');
    expect(normalised).toEqual({ ok: true, path: '/api/claims/public/%E2%84%AA' });
    expect(classifyPath('/api/claims/%E2%84%AAlaims')?.group).toBe('internal');
  });
});
